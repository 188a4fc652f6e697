import { ProviderRefusal, ProviderUnavailable, type ImageProvider } from '../../../ports/image-provider.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { Semaphore } from './semaphore.js';

export interface ResilienceOptions {
  /** Per attempt (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retries after the first attempt, for 429, 5xx and network errors. */
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

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }, { once: true });
  });

/** Network-level failures (refused, reset, DNS) from fetch surface as TypeError; worth another try. */
const isRetryable = (error: unknown) => error instanceof ProviderUnavailable || (error instanceof TypeError && /fetch failed|network/i.test(error.message));

/**
 * Wraps any adapter with what every remote provider needs: a timeout per attempt, retries of 429/5xx and
 * network errors with capped exponential backoff and full jitter (a provider's Retry-After wins), never a
 * retry of a refusal, a cap on concurrent calls, and a breaker that answers fast while the provider keeps failing.
 */
export function withResilience(provider: ImageProvider, options: ResilienceOptions): ImageProvider {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const slots = new Semaphore(options.maxConcurrent);
  const breaker = new CircuitBreaker({ failureThreshold: options.breakerThreshold, cooldownMs: options.breakerCooldownMs, now });

  async function attempt(request: Parameters<ImageProvider['generate']>[0], outer?: AbortSignal) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = outer === undefined ? timeout : AbortSignal.any([outer, timeout]);
    try {
      return await provider.generate(request, { signal });
    } catch (error) {
      if (timeout.aborted && outer?.aborted !== true) throw new Error(`${provider.id} did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
      throw error;
    }
  }

  return {
    id: provider.id,
    async generate(request, callOptions) {
      const release = await slots.acquire(callOptions?.signal);
      try {
        for (let tries = 0; ; tries += 1) {
          if (!breaker.tryAcquire()) {
            throw new ProviderUnavailable(`${provider.id} is failing repeatedly; not calling it for another ${Math.ceil(breaker.retryInMs() / 1000)} s`, 503);
          }
          try {
            const image = await attempt(request, callOptions?.signal);
            breaker.succeeded();
            return image;
          } catch (error) {
            if (error instanceof ProviderRefusal || callOptions?.signal?.aborted === true) {
              breaker.released();
              throw error;
            }
            breaker.failed();
            if (!isRetryable(error) || tries >= options.retries) throw error;
            const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** tries) * random();
            const retryAfter = error instanceof ProviderUnavailable ? error.retryAfterMs : undefined;
            await sleep(Math.min(options.maxDelayMs, retryAfter ?? backoff), callOptions?.signal);
          }
        }
      } finally {
        release();
      }
    },
  };
}
