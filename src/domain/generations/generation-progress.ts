import type { ProviderProgress } from '../../ports/image-provider.js';
import type { Deps } from '../context.js';
import { publish } from './generation-record.js';

/** How often a generation's watchers hear of its progress at most: a provider reporting 50 steps a second gives them 4. */
export const PROGRESS_EVENT_MS = 250;
/**
 * How often its row is written at most. A generation done sooner never writes its progress (its end writes 1), so the
 * quick ones, most of them, cost the database nothing more.
 */
export const PROGRESS_WRITE_MS = 1_000;

export interface ProgressTiming {
  eventMs: number;
  writeMs: number;
}

/** What following a generation's progress touches: its events, its row's progress, the log. */
export type ProgressDeps = Pick<Deps, 'events' | 'logger'> & { db: { generations: Pick<Deps['db']['generations'], 'setProgress'> } };

export interface ProgressFollower {
  /** What the provider reported; never throws, as the provider call asks of its listener. */
  report: (progress: ProviderProgress) => void;
  /** Sends nothing more: called once the provider call ended, before the generation's end is recorded and told. */
  stop: () => void;
}

/**
 * Turns a provider's progress into `generation.progress` events (`{ progress, message? }`) and the row's `progress`,
 * each at most once per its interval, with the latest value at the end of the interval (a burst of steps costs one
 * event and one write). `progress` never goes back, stays within 0..1, and is the last known fraction when a report
 * only says what the provider does. A failed publish or write is logged, never thrown: progress is a hint, and the
 * generation goes on without it.
 */
export function followProgress(
  deps: ProgressDeps,
  generationId: string,
  timing: ProgressTiming = { eventMs: PROGRESS_EVENT_MS, writeMs: PROGRESS_WRITE_MS },
): ProgressFollower {
  let fraction = 0;
  let message: string | undefined;
  let stopped = false;
  let written = 0;
  let writing = false;
  let warned = false;

  const events = latestEvery(
    timing.eventMs,
    () => void publish(deps, 'generation.progress', generationId, { progress: fraction, ...(message === undefined ? {} : { message }) }),
  );
  const writes = latestEvery(timing.writeMs, () => {
    // A write still in flight (a slow database) is not queued behind: the next interval writes the latest value.
    if (writing || fraction === written) return;
    writing = true;
    const value = fraction;
    deps.db.generations.setProgress(generationId, value).then(
      () => {
        written = value;
        writing = false;
      },
      (error: unknown) => {
        writing = false;
        // Once at warn: a database that fails one write fails the next ones too, every interval.
        const log = warned ? deps.logger.debug.bind(deps.logger) : deps.logger.warn.bind(deps.logger);
        warned = true;
        log({ generationId, err: error instanceof Error ? error.message : String(error) }, "could not record a generation's progress");
      },
    );
  });

  return {
    report(progress) {
      if (stopped) return;
      const given = progress.fraction;
      if (given !== undefined && Number.isFinite(given)) fraction = Math.max(fraction, Math.min(1, Math.max(0, given)));
      if (progress.message !== undefined) message = progress.message;
      events.mark();
      writes.mark();
    },
    stop() {
      stopped = true;
      events.stop();
      writes.stop();
    },
  };
}

interface Throttle {
  /** Something changed: `send` runs at the end of the current interval (one starts if none runs). */
  mark: () => void;
  stop: () => void;
}

/** Runs `send` at most once per `ms`, at the end of each interval in which something was marked. */
function latestEvery(ms: number, send: () => void): Throttle {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let marked = false;
  const fire = (): void => {
    timer = undefined;
    if (!marked) return;
    marked = false;
    send();
    // The next send waits a whole interval after this one, however soon the next change comes.
    timer = setTimeout(fire, ms);
  };
  return {
    mark() {
      marked = true;
      timer ??= setTimeout(fire, ms);
    },
    stop() {
      marked = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
