import type { Logger } from '../../ports/logger.js';

/** How long a burst of connection errors is summed up before the next one is written. */
const QUIET_MS = 10_000;

/**
 * A warning for connection errors that come in bursts (a database restart fails every pooled connection
 * at once, a Redis client retries every few hundred milliseconds): the first of a burst is written at
 * once, the rest are counted and the count goes with the next one written after `quietMs`. One line per
 * burst, never a stack per connection.
 */
export function burstWarning(logger: Logger | undefined, message: string, quietMs = QUIET_MS, now: () => number = Date.now): (error: unknown) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return (error) => {
    const at = now();
    if (at - lastAt < quietMs) {
      suppressed += 1;
      return;
    }
    lastAt = at;
    const fields = { err: error instanceof Error ? error.message : String(error), ...(suppressed > 0 ? { alsoSince: suppressed } : {}) };
    suppressed = 0;
    logger?.warn(fields, message);
  };
}
