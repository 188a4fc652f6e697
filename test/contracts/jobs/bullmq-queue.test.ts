import { spawn } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createBullmqQueue, type BullmqQueueOptions } from '../../../src/adapters/queue/bullmq-queue.js';
import type { JobQueue } from '../../../src/ports/job-queue.js';
import type { Logger } from '../../../src/ports/logger.js';
import { deleteRedisKeys, freshRedisPrefix } from '../../../src/test-support/redis-keys.js';
import { TEST_REDIS_URL, skipWithout } from '../../../src/test-support/services.js';

const skip = await skipWithout('redis');
const prefixes: string[] = [];

const newPrefix = (name: string): string => {
  const prefix = freshRedisPrefix(name);
  prefixes.push(prefix);
  return prefix;
};

/** Short locks and stall checks, so a dead worker's job comes back within a second or two. */
const open = (prefix: string, over: Partial<BullmqQueueOptions> = {}): JobQueue =>
  createBullmqQueue({ connection: TEST_REDIS_URL, prefix, logger: pino({ level: 'silent' }), lockDurationMs: 1000, stalledIntervalMs: 250, ...over });

const until = async (check: () => boolean, what: () => string) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

type Line = { level: string; fields: object; message?: string };

/** Records what is logged, to check what the queue reports. */
function recordingLogger(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (fields: object | string, message?: string): void => {
      lines.push(typeof fields === 'string' ? { level, fields: {}, message: fields } : { level, fields, message });
    };
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

afterAll(async () => {
  if (!skip) for (const prefix of prefixes) await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('BullMQ job queue', () => {
  it("runs a delayed job at its time, by BullMQ's own timers on the system clock", async () => {
    const queue = open(newPrefix('bullmq-delay'));
    let ranAt: number | undefined;
    queue.process('q', 1, async () => {
      ranAt = Date.now();
    });
    const runAt = Date.now() + 300;
    await queue.enqueue('q', {}, { id: 'soon', runAt: new Date(runAt) });
    await until(
      () => ranAt !== undefined,
      () => 'the delayed job ran',
    );
    expect(ranAt).toBeGreaterThanOrEqual(runAt);
    await queue.close();
  });

  it('runs a delayed job when another clock passes its time, whatever the real date', async () => {
    // A clock three days behind, as a test clock may be: the job waits for this clock, not for the date.
    const clock = { now: () => new Date(Date.now() - 3 * 24 * 3600_000) };
    const queue = open(newPrefix('bullmq-clock'), { clock, pollMs: 20 });
    let ranAt: number | undefined;
    queue.process('q', 1, async () => {
      ranAt = Date.now();
    });
    const enqueuedAt = Date.now();
    await queue.enqueue('q', {}, { id: 'soon', runAt: new Date(clock.now().getTime() + 300) });
    await until(
      () => ranAt !== undefined,
      () => 'the delayed job ran',
    );
    expect(ranAt).toBeGreaterThanOrEqual(enqueuedAt + 300);
    await queue.close();
  });

  it('runs an id again when it is enqueued after its job completed', async () => {
    const queue = open(newPrefix('bullmq-reuse'));
    let runs = 0;
    queue.process('q', 1, async () => {
      runs += 1;
    });
    await queue.enqueue('q', {}, { id: 'again' });
    await queue.drain();
    await queue.enqueue('q', {}, { id: 'again' });
    await queue.drain();
    expect(runs).toBe(2);
    await queue.close();
  });

  it('retries a job that threw with exponential backoff, logging each failed run with its attempt and the last one as final', async () => {
    const logger = recordingLogger();
    const queue = open(newPrefix('bullmq-fail'), { logger, retry: { attempts: 3, backoffMs: 100 } });
    const startedAt: number[] = [];
    queue.process('q', 1, async () => {
      startedAt.push(Date.now());
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    await queue.enqueue('q', {}, { id: 'doomed' });
    await until(
      () => startedAt.length === 3,
      () => `${startedAt.length} runs`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await queue.close();
    expect(startedAt).toHaveLength(3);
    // BullMQ's exponential backoff: 100 ms, then 200 ms.
    expect((startedAt[1] ?? 0) - (startedAt[0] ?? 0)).toBeGreaterThanOrEqual(90);
    expect((startedAt[2] ?? 0) - (startedAt[1] ?? 0)).toBeGreaterThanOrEqual(190);
    const failures = logger.lines.filter(
      (line) => line.fields !== null && 'jobId' in line.fields && line.fields.jobId === 'doomed' && line.message?.startsWith('job failed'),
    );
    expect(failures.map((line) => [line.level, line.fields])).toEqual([
      ['warn', { queue: 'q', jobId: 'doomed', attempt: 1, attempts: 3, err: 'connect ECONNREFUSED 127.0.0.1:5432' }],
      ['warn', { queue: 'q', jobId: 'doomed', attempt: 2, attempts: 3, err: 'connect ECONNREFUSED 127.0.0.1:5432' }],
      ['error', { queue: 'q', jobId: 'doomed', attempt: 3, attempts: 3, err: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    ]);
  });

  it('keeps every key under its prefix', async () => {
    const prefix = newPrefix('bullmq-keys');
    const name = `kind${Date.now()}`;
    const queue = open(prefix);
    queue.process(name, 1, async () => undefined);
    await queue.enqueue(name, {}, { id: 'now' });
    await queue.enqueue(name, {}, { id: 'later', runAt: new Date(Date.now() + 60_000) });
    await queue.drain();
    const client = new Redis(TEST_REDIS_URL);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `*${name}*`, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    client.disconnect();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !key.startsWith(`${prefix}:`))).toEqual([]);
    await queue.close();
  });

  it('waits at close for a running job to finish, and records it as done', async () => {
    const prefix = newPrefix('bullmq-close');
    const queue = open(prefix);
    const events: string[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    queue.process('q', 1, async () => {
      events.push('started');
      await gate;
      events.push('finished');
    });
    await queue.enqueue('q', {}, { id: 'slow' });
    await until(
      () => events.includes('started'),
      () => 'the job started',
    );
    const closed = queue.close().then(() => events.push('closed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await closed;
    expect(events).toEqual(['started', 'finished', 'closed']);
    const client = new Redis(TEST_REDIS_URL);
    const inspect = new Queue('q', { connection: client, prefix });
    expect(await inspect.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      completed: 0,
    });
    await inspect.close();
    client.disconnect();
  });

  it('hands a job still running when close times out back to the queue, where another worker takes it at once', async () => {
    const prefix = newPrefix('bullmq-handback');
    // Locks far longer than the test: only the hand-back can bring the job back in time.
    const slow = { lockDurationMs: 60_000, stalledIntervalMs: 30_000 };
    const stopping = open(prefix, { ...slow, closeTimeoutMs: 100 });
    const other = open(prefix, slow);
    const runs: string[] = [];
    stopping.process('q', 1, async () => {
      runs.push('stopping');
      await new Promise(() => undefined);
    });
    await stopping.enqueue('q', { n: 1 }, { id: 'stuck' });
    await until(
      () => runs.length === 1,
      () => 'the first worker took the job',
    );
    await stopping.close();
    other.process('q', 1, async (payload) => {
      runs.push(`other:${String(payload.n)}`);
    });
    await until(
      () => runs.length === 2,
      () => 'the other worker ran the handed-back job',
    );
    expect(runs).toEqual(['stopping', 'other:1']);
    await other.close();
  });

  it('runs again, on another worker, a job whose worker process was killed (kill -9) mid-job', async () => {
    const prefix = newPrefix('bullmq-kill');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'bullmq-worker-process.ts')], {
      env: { PATH: process.env.PATH ?? '', REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, QUEUE_NAME: 'q' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const survivor = open(prefix);
      await survivor.enqueue('q', { n: 42 }, { id: 'interrupted' });
      await until(
        () => output.includes('{"started":{"n":42}}'),
        () => `the child started the job (its output: ${output})`,
      );
      child.kill('SIGKILL');
      await exited;
      const seen: unknown[] = [];
      survivor.process('q', 1, async (payload) => {
        seen.push(payload.n);
      });
      await until(
        () => seen.length === 1,
        () => 'the survivor ran the job',
      );
      await survivor.drain();
      expect(seen).toEqual([42]);
      await survivor.close();
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
