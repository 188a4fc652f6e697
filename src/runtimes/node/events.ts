import type { Redis } from 'ioredis';
import { createMemoryGenerationEvents } from '../../adapters/events/memory-generation-events.js';
import { createRedisGenerationEvents } from '../../adapters/events/redis-generation-events.js';
import type { Config } from '../../config/config.js';
import type { GenerationEvents } from '../../ports/generation-events.js';
import type { Logger } from '../../ports/logger.js';

/** Across processes through Redis pub/sub when Redis is configured; within this process otherwise (the embedded setup). */
export function openGenerationEvents(config: Config, publisher: Redis | undefined, logger: Logger): GenerationEvents {
  if (config.redis === undefined || publisher === undefined) return createMemoryGenerationEvents();
  return createRedisGenerationEvents({ url: config.redis.url, prefix: config.redis.prefix, publisher, logger });
}
