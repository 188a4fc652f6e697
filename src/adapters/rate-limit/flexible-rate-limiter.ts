import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Clock } from '../../ports/clock.js';
import { WINDOW_MS, type RateLimiter } from '../../ports/rate-limiter.js';

/**
 * rate-limiter-flexible counts atomically (in memory here; RateLimiterRedis drops in for several instances).
 * Its windows start at a key's first request, so the key carries the wall-clock minute to align them.
 */
export function createFlexibleRateLimiter(options: { clock: Clock; create?: (points: number, durationSeconds: number) => RateLimiterAbstract }): RateLimiter {
  const create = options.create ?? ((points, duration) => new RateLimiterMemory({ points, duration }));
  const byLimit = new Map<number, RateLimiterAbstract>();
  const limiterFor = (limit: number): RateLimiterAbstract => {
    let limiter = byLimit.get(limit);
    if (limiter === undefined) {
      limiter = create(limit, WINDOW_MS / 1000);
      byLimit.set(limit, limiter);
    }
    return limiter;
  };

  return {
    async consume(key, limit) {
      const window = Math.floor(options.clock.now().getTime() / WINDOW_MS);
      const resetAt = (window + 1) * WINDOW_MS;
      try {
        const result = await limiterFor(limit).consume(`${key}:${window}`, 1);
        return { allowed: true, limit, remaining: Math.max(0, result.remainingPoints), resetAt };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetAt };
        throw rejection;
      }
    },
  };
}
