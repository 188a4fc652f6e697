export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Unix milliseconds when the current window ends. */
  resetAt: number;
}

/** Fixed windows on wall-clock minutes, exact under concurrency; shared by instances when the adapter is. */
export interface RateLimiter {
  consume(key: string, limitPerMinute: number): Promise<RateLimitDecision>;
}

export const WINDOW_MS = 60_000;
