import type { Redis } from 'ioredis';
import { createFlexibleRateLimiter } from '../../adapters/rate-limit/flexible-rate-limiter.js';
import { createRateLimitRedisClient, waitUntilReady } from '../../adapters/rate-limit/redis-client.js';
import { createRedisRateLimiter } from '../../adapters/rate-limit/redis-rate-limiter.js';
import type { Config } from '../../config/config.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

/**
 * Counters in Redis are exact across every API process; in memory they count for this process only. The Redis
 * client comes back too: the generation events publish through it and readiness pings it.
 */
export async function openRateLimiter(
  config: Config,
  clock: Clock,
  logger: Logger,
  closers: (() => Promise<void>)[],
): Promise<{ limiter: RateLimiter; redis?: Redis }> {
  if (config.redis === undefined) return { limiter: createFlexibleRateLimiter({ clock }) };
  const client = createRateLimitRedisClient({ url: config.redis.url, commandTimeoutMs: config.redis.commandTimeoutMs, logger });
  closers.unshift(async () => {
    await client.quit().catch(() => client.disconnect());
  });
  // The client has no offline queue: without this wait, the first requests after start could get a 503
  // only because the connection was still being made. Redis that is down does not stop the start.
  await waitUntilReady(client);
  return { limiter: createRedisRateLimiter({ client, prefix: config.redis.prefix, clock, fallback: config.redis.rateLimitFallback }), redis: client };
}
