import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Clock } from '../../ports/clock.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { createFlexibleRateLimiter } from './flexible-rate-limiter.js';

export interface RedisRateLimiterOptions {
  /** Shared by every API process; the caller owns it (and closes it). */
  client: Redis;
  /** Namespaces the counters (`REDIS_PREFIX`): keys are `<prefix>:rate-limit:<limit>:<key>:<minute>`. */
  prefix: string;
  clock: Clock;
}

/**
 * Counters in Redis, so a key's limit holds exactly across every API process: each consume is one
 * atomic script (SET NX, INCRBY, PTTL) on the key of the current wall-clock minute.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  // A counter per limit, as in memory: a key whose limit changes mid-minute starts the new limit afresh.
  return createFlexibleRateLimiter({
    clock: options.clock,
    create: (points, duration) => new RateLimiterRedis({ storeClient: options.client, keyPrefix: `${options.prefix}:rate-limit:${points}`, points, duration }),
  });
}
