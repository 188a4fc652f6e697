import { Redis } from 'ioredis';
import type { GenerationEvent, GenerationEvents } from '../../ports/generation-events.js';
import type { Logger } from '../../ports/logger.js';
import { burstWarning } from '../support/burst-warning.js';
import { partialEffectOf } from './latest-partials.js';
import { createListenerTable } from './memory-generation-events.js';

export interface RedisGenerationEventsOptions {
  url: string;
  /** Keeps channels apart per deployment, as the queue's and the limits' keys are. */
  prefix: string;
  /** Publishes on this (request-path) connection: a publish never waits on an outage. */
  publisher: Redis;
  logger: Logger;
}

const SUBSCRIBE_WAIT_MS = 1_000;
/** How long a generation's latest partial is kept for late watchers: longer than any provider call runs. */
const PARTIAL_TTL_SECONDS = 15 * 60;

/**
 * Generation events across processes through Redis pub/sub, which the scale-out deployment already runs: the API
 * process a caller waits on hears the worker's `generation.completed` the moment it is published. One subscriber
 * connection per process, one channel per generation watched here. Lost messages (an outage) are caught by the
 * watchers' reads of the generation's row.
 */
export function createRedisGenerationEvents(options: RedisGenerationEventsOptions): GenerationEvents {
  const { publisher, logger } = options;
  const channel = (generationId: string) => `${options.prefix}generation:${generationId}`;
  const partialKey = (generationId: string) => `${options.prefix}generation-partial:${generationId}`;
  const table = createListenerTable((error) =>
    logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'a generation event listener failed'),
  );
  const warn = burstWarning(logger, 'the Redis connection for generation events failed; waiting callers fall back to reading the database');
  // A subscriber connection cannot run other commands; it retries for ever, as BullMQ's do.
  const subscriber = new Redis(options.url, { maxRetriesPerRequest: null, retryStrategy: (attempt) => Math.min(100 * attempt, 2_000) });
  subscriber.on('error', warn);
  subscriber.on('message', (_channel: string, message: string) => {
    try {
      table.deliver(JSON.parse(message) as GenerationEvent);
    } catch (error) {
      warn(error);
    }
  });

  return {
    async publish(event) {
      const message = JSON.stringify(event);
      const effect = partialEffectOf(event);
      try {
        // Kept before it is sent, so a watcher that hears of the generation and then asks for its partial finds it.
        if (effect === 'keep') await publisher.set(partialKey(event.generation_id), message, 'EX', PARTIAL_TTL_SECONDS);
        else if (effect === 'forget') await publisher.del(partialKey(event.generation_id));
        await publisher.publish(channel(event.generation_id), message);
      } catch (error) {
        warn(error);
      }
    },
    async latestPartial(generationId) {
      try {
        const message = await publisher.get(partialKey(generationId));
        return message === null ? undefined : (JSON.parse(message) as GenerationEvent);
      } catch (error) {
        warn(error);
        return undefined;
      }
    },
    async subscribe(generationId, listener) {
      const { first, remove } = table.add(generationId, listener);
      // Waited for at most a moment: during an outage the watcher reads the generation's row instead.
      if (first)
        await Promise.race([subscriber.subscribe(channel(generationId)).catch(warn), new Promise((resolve) => setTimeout(resolve, SUBSCRIBE_WAIT_MS))]);
      return () => {
        if (remove()) void subscriber.unsubscribe(channel(generationId)).catch(warn);
      };
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
