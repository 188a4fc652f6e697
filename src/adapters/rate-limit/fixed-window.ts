import { WINDOW_MS, type RateLimitDecision } from '../../ports/rate-limiter.js';

/** A key's count in its current window, as a Durable Object keeps it. */
export interface WindowCount {
  /** Unix milliseconds when the window began: a whole minute. */
  start: number;
  count: number;
}

/**
 * One request against a fixed window on wall-clock minutes: the count of a past window starts again at zero. Pure,
 * so the Durable Object that serialises a key's requests only reads and writes what this returns.
 */
export function consumeWindow(current: WindowCount | undefined, limit: number, nowMs: number): { next: WindowCount; decision: RateLimitDecision } {
  const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  const counted = current !== undefined && current.start === start ? current.count : 0;
  const allowed = counted < limit;
  const next = { start, count: allowed ? counted + 1 : counted };
  return { next, decision: { allowed, limit, remaining: Math.max(0, limit - next.count), resetAt: start + WINDOW_MS } };
}
