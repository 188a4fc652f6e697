import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenerationEvent } from '../../ports/generation-events.js';
import type { LogFn } from '../../ports/logger.js';
import { followProgress, type ProgressDeps } from './generation-progress.js';

const TIMING = { eventMs: 250, writeMs: 1_000 };

interface Recorded {
  deps: ProgressDeps;
  events: GenerationEvent[];
  writes: number[];
  logged: { level: string; message?: string }[];
  /** Makes the next writes fail (the database gone) or succeed again. */
  failWrites: (fail: boolean) => void;
}

function recorded(): Recorded {
  const events: GenerationEvent[] = [];
  const writes: number[] = [];
  const logged: { level: string; message?: string }[] = [];
  let failing = false;
  const log =
    (level: string): LogFn =>
    (fields: object | string, message?: string) =>
      void logged.push({ level, message: typeof fields === 'string' ? fields : message });
  const deps: ProgressDeps = {
    events: {
      publish: async (event) => void events.push(event),
      subscribe: async () => () => undefined,
      latestPartial: async () => undefined,
      close: async () => undefined,
    },
    logger: { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') },
    db: {
      generations: {
        setProgress: async (_id, progress) => {
          if (failing) throw new Error('database is down');
          writes.push(progress);
        },
      },
    },
  };
  return { deps, events, writes, logged, failWrites: (fail) => (failing = fail) };
}

/** Moves the fake clock on and lets the writes' promises settle. */
const pass = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
};

describe("a generation's progress", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('publishes a burst of steps once per interval with the latest value, and writes the row once a second', async () => {
    const { deps, events, writes } = recorded();
    const progress = followProgress(deps, 'gen_1', TIMING);
    for (let step = 1; step <= 50; step += 1) progress.report({ fraction: step / 100, message: `step ${step}/100` });
    expect(events).toEqual([]);
    await pass(250);
    expect(events).toEqual([{ type: 'generation.progress', generation_id: 'gen_1', data: { progress: 0.5, message: 'step 50/100' } }]);
    for (let step = 51; step <= 100; step += 1) {
      progress.report({ fraction: step / 100, message: `step ${step}/100` });
      await pass(10);
    }
    // 500 ms of steps: two more events at most, and the row written once, a second after the first report.
    expect(events.length).toBeLessThanOrEqual(3);
    expect(writes).toEqual([]);
    await pass(1_000);
    expect(writes).toEqual([1]);
    expect(events.at(-1)?.data).toEqual({ progress: 1, message: 'step 100/100' });
    progress.stop();
  });

  it('never goes back, stays within 0..1, and tells words alone with the last fraction known', async () => {
    const { deps, events } = recorded();
    const progress = followProgress(deps, 'gen_1', TIMING);
    progress.report({ message: 'in queue at position 1' });
    await pass(250);
    progress.report({ fraction: 0.6 });
    await pass(250);
    progress.report({ fraction: 0.2, message: 'a second pass' });
    await pass(250);
    progress.report({ fraction: 4 });
    await pass(250);
    expect(events.map((event) => event.data)).toEqual([
      { progress: 0, message: 'in queue at position 1' },
      { progress: 0.6, message: 'in queue at position 1' },
      { progress: 0.6, message: 'a second pass' },
      { progress: 1, message: 'a second pass' },
    ]);
    progress.stop();
  });

  it('sends nothing once stopped, even what was waiting for the end of its interval', async () => {
    const { deps, events, writes } = recorded();
    const progress = followProgress(deps, 'gen_1', TIMING);
    progress.report({ fraction: 0.3 });
    progress.stop();
    progress.report({ fraction: 0.9 });
    await pass(5_000);
    expect(events).toEqual([]);
    expect(writes).toEqual([]);
  });

  it('goes on when the row cannot be written, warning once and then only at debug', async () => {
    const { deps, writes, logged, failWrites } = recorded();
    const progress = followProgress(deps, 'gen_1', TIMING);
    failWrites(true);
    progress.report({ fraction: 0.1 });
    await pass(1_000);
    progress.report({ fraction: 0.2 });
    await pass(1_000);
    failWrites(false);
    progress.report({ fraction: 0.3 });
    await pass(1_000);
    expect(writes).toEqual([0.3]);
    expect(logged.filter((entry) => entry.message === "could not record a generation's progress").map((entry) => entry.level)).toEqual(['warn', 'debug']);
    progress.stop();
  });

  it('goes on when its events cannot be published', async () => {
    const { deps, logged } = recorded();
    deps.events.publish = () => Promise.reject(new Error('redis is down'));
    const progress = followProgress(deps, 'gen_1', TIMING);
    progress.report({ fraction: 0.5 });
    await pass(250);
    expect(logged.map((entry) => entry.message)).toContain('could not publish a generation event');
    progress.stop();
  });
});
