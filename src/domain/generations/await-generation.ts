import type { GenerationRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { FINAL_EVENTS } from './generation-record.js';

/**
 * How often a watcher reads the row while no event came: events travel within a process, or across processes
 * through Redis; without Redis (PostgreSQL alone, Workers) the worker that runs it is elsewhere, and this is how
 * its end is seen.
 */
export const POLL_MS = 500;
/** The longest gap between two reads: a long wait backs off, so a Worker's wait stays within its subrequest limits. */
export const MAX_POLL_MS = 5_000;

/** The gap before read `n` (0, 1, 2, ...): POLL_MS at first, growing by half each time, to MAX_POLL_MS. */
export const pollDelay = (n: number): number => Math.min(MAX_POLL_MS, Math.round(POLL_MS * 1.5 ** n));

/**
 * How long a caller that sent no preference waits for its image: far beyond any provider's deadline with its
 * retries, so in practice the answer is the image (or the generation's error).
 */
export const DEFAULT_WAIT_MS = 10 * 60_000;

export interface Awaited {
  /** The generation as it was when the wait ended. */
  row: GenerationRow | undefined;
  /** The wait ended because the service failed under the generation, whose job runs again later. */
  retrying: boolean;
}

const isFinal = (row: GenerationRow | undefined): boolean => row === undefined || (row.status !== 'queued' && row.status !== 'running');

/**
 * Waits until the generation is final, its job is to run again after an outage, `timeoutMs` pass or `signal` aborts
 * (the caller left), and answers the row as it then is. Waiting never affects the generation: it runs to its end
 * whoever waits.
 */
export async function awaitGeneration(
  deps: Pick<Deps, 'db' | 'events'>,
  generationId: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<Awaited> {
  let wake: (() => void) | undefined;
  let retrying = false;
  const unsubscribe = await deps.events.subscribe(generationId, (event) => {
    if (event.type === 'generation.retrying') retrying = true;
    if (FINAL_EVENTS.has(event.type) || retrying) wake?.();
  });
  const deadline = Date.now() + options.timeoutMs;
  try {
    for (let reads = 0; ; reads += 1) {
      const row = await deps.db.generations.findAny(generationId);
      const remaining = deadline - Date.now();
      if (isFinal(row) || retrying || remaining <= 0 || options.signal?.aborted === true) return { row, retrying: retrying && !isFinal(row) };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(pollDelay(reads), remaining));
        function done(): void {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', done);
          wake = undefined;
          resolve();
        }
        wake = done;
        options.signal?.addEventListener('abort', done, { once: true });
      });
    }
  } finally {
    unsubscribe();
  }
}
