import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { Clock } from '../../ports/clock.js';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { createFlexibleRateLimiter } from './flexible-rate-limiter.js';

/** What limits requests while Redis does not answer: nothing (`closed`: every limited request fails) or this process's own counters. */
export type RateLimitFallback = 'closed' | 'memory';

export interface RedisRateLimiterOptions {
  /** Shared by every API process; the caller owns it (and closes it). See `createRateLimitRedisClient` for the options it needs. */
  client: Redis;
  /** Namespaces the counters (`REDIS_PREFIX`): keys are `<prefix>:rate-limit:<limit>:<key>:<minute>`. */
  prefix: string;
  clock: Clock;
  /** Default `closed`. */
  fallback?: RateLimitFallback;
}

/**
 * Counters in Redis, so a key's limit holds exactly across every API process: each consume is one
 * atomic script (SET NX, INCRBY, PTTL) on the key of the current wall-clock minute.
 *
 * While Redis does not answer, a `closed` limiter throws DependencyUnavailable (the request gets a 503 with
 * Retry-After: no limit is enforced, so nothing is let through); a `memory` one counts in this process
 * instead (rate-limiter-flexible's insurance limiter), so each process allows up to the limit on its own.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const memory = options.fallback === 'memory';
  // A counter per limit, as in memory: a key whose limit changes mid-minute starts the new limit afresh.
  const limiter = createFlexibleRateLimiter({
    clock: options.clock,
    create: (points, duration) =>
      new RateLimiterRedis({
        storeClient: options.client,
        keyPrefix: `${options.prefix}:rate-limit:${points}`,
        points,
        duration,
        ...(memory ? { insuranceLimiter: new RateLimiterMemory({ points, duration }) } : {}),
      }),
  });
  return {
    async consume(key, limit) {
      try {
        return await limiter.consume(key, limit);
      } catch (error) {
        // The flexible limiter rethrows only what is not a decision: the store failed.
        throw new DependencyUnavailable('redis', `rate-limit counters unavailable (${error instanceof Error ? error.message : String(error)})`, {
          cause: error,
        });
      }
    },
  };
}
