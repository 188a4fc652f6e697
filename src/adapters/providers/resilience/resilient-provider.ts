import {
  ProviderAccountProblem,
  ProviderCircuitOpen,
  ProviderRefusal,
  ProviderUnavailable,
  type CallJournal,
  type ImageProvider,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { Semaphore } from './semaphore.js';

export interface ResilienceOptions {
  /** Per attempt (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retries after the first attempt, for 408, 429, 5xx and network errors. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxConcurrent: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** 0 <= random() < 1, for jitter. */
  random?: () => number;
}

export const DEFAULT_RESILIENCE: Omit<ResilienceOptions, 'timeoutMs'> = {
  retries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxConcurrent: 4,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
};

/** `imagegate models --check` waits at most this long for one provider. */
const CHECK_TIMEOUT_MS = 15_000;

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });

/** Network-level failures (refused, reset, DNS) from fetch surface as TypeError; worth another try. */
const isNetworkError = (error: unknown) => error instanceof TypeError && /fetch failed|network/i.test(error.message);
const isRetryable = (error: unknown) => error instanceof ProviderUnavailable || isNetworkError(error);

/**
 * Wraps any adapter with what every remote provider needs: a timeout per attempt, retries of 408/429/5xx and
 * network errors with capped exponential backoff and full jitter (a provider's Retry-After wins), never a retry
 * of a refusal or an account problem, a cap on concurrent calls, and a breaker that answers fast while the
 * provider keeps failing.
 *
 * All attempts of one call share a CallJournal: once the provider accepted a job, a retry resumes that job and
 * never creates (and pays for) another. A call that finally fails cancels the job it leaves behind.
 */
export function withResilience(provider: ImageProvider, options: ResilienceOptions): ImageProvider {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const slots = new Semaphore(options.maxConcurrent);
  const breaker = new CircuitBreaker({ failureThreshold: options.breakerThreshold, cooldownMs: options.breakerCooldownMs, now });

  /** One attempt; a timeout becomes a 504-like ProviderUnavailable, flagged so it is not retried. */
  async function attempt(request: ProviderRequest, journal: CallJournal, outer?: AbortSignal) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = outer === undefined ? timeout : AbortSignal.any([outer, timeout]);
    try {
      return await provider.generate(request, { signal, journal });
    } catch (error) {
      if (timeout.aborted && outer?.aborted !== true) throw new AttemptTimedOut(`${provider.id} did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
      throw error;
    }
  }

  /** A call given up on leaves nothing running at the provider. */
  const abandon = (journal: CallJournal) => {
    if (journal.job !== undefined) provider.cancel?.(journal);
  };

  const circuitOpen = () =>
    new ProviderCircuitOpen(`${provider.id} is failing repeatedly; not calling it for another ${Math.ceil(breaker.retryInMs() / 1000)} s`, 503, breaker.retryInMs());

  const wrapped: ImageProvider = {
    id: provider.id,
    async generate(request, callOptions) {
      const journal: CallJournal = callOptions?.journal ?? {};
      const release = await slots.acquire(callOptions?.signal);
      try {
        for (let tries = 0; ; tries += 1) {
          if (!breaker.tryAcquire()) {
            abandon(journal);
            throw circuitOpen();
          }
          try {
            const image = await attempt(request, journal, callOptions?.signal);
            breaker.succeeded();
            return image;
          } catch (error) {
            // About this request or this account, or the caller left: nothing said about the provider's health.
            if (error instanceof ProviderRefusal || error instanceof ProviderAccountProblem || callOptions?.signal?.aborted === true) {
              breaker.released();
              abandon(journal);
              throw error;
            }
            breaker.failed();
            if (error instanceof AttemptTimedOut || !isRetryable(error) || tries >= options.retries) {
              abandon(journal);
              throw finalError(error);
            }
            const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** tries) * random();
            const retryAfter = error instanceof ProviderUnavailable ? error.retryAfterMs : undefined;
            await sleep(Math.min(options.maxDelayMs, retryAfter ?? backoff), callOptions?.signal);
          }
        }
      } finally {
        release();
      }
    },
    cancel: (journal) => provider.cancel?.(journal),
  };
  const check = provider.check?.bind(provider);
  if (check !== undefined) wrapped.check = (signal) => check(signal ?? AbortSignal.timeout(CHECK_TIMEOUT_MS));
  return wrapped;

  /** A provider that timed out or cannot be reached is down for the caller (503), not a bug (500). */
  function finalError(error: unknown): unknown {
    if (error instanceof AttemptTimedOut) return new ProviderUnavailable(error.message, 504);
    if (error instanceof TypeError && isNetworkError(error)) return new ProviderUnavailable(`${provider.id} could not be reached: ${error.message}`, 503);
    return error;
  }
}

class AttemptTimedOut extends Error {
  override readonly name = 'AttemptTimedOut';
}
