/** Why the deadline's signal aborted: the adapter's fetch rejects with it. */
export class DeadlineReached extends Error {
  override readonly name = 'DeadlineReached';
}

/** PROVIDER_TIMEOUT_MS from a call's start: one bound for its attempts, its waits and its polls together. */
export interface Deadline {
  /** Aborts when the time is up, cutting whatever request or wait is under way. */
  readonly signal: AbortSignal;
  /** Whether the time is up, by the abort or by the (injectable) clock. */
  passed(): boolean;
  /** Milliseconds left by the clock. */
  remainingMs(): number;
  clear(): void;
}

/**
 * The signal runs on a real timer, so a request in flight is cut on time; the clock answers `passed` and
 * `remainingMs`, so a test that injects one (and a sleep that advances it) sees waits measured against it.
 */
export function startDeadline(ms: number, now: () => number, what: string): Deadline {
  const controller = new AbortController();
  const at = now() + ms;
  const timer = setTimeout(() => controller.abort(new DeadlineReached(`${what} did not finish within ${seconds(ms)} s`)), ms);
  return {
    signal: controller.signal,
    passed: () => controller.signal.aborted || now() >= at,
    remainingMs: () => Math.max(0, at - now()),
    clear: () => clearTimeout(timer),
  };
}

/** Whole seconds, for messages (a 200 ms test timeout reads "0 s", as before). */
export const seconds = (ms: number): number => Math.round(ms / 1000);
