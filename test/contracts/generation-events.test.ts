import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { createMemoryGenerationEvents } from '../../src/adapters/events/memory-generation-events.js';
import { createRedisGenerationEvents } from '../../src/adapters/events/redis-generation-events.js';
import type { GenerationEvents } from '../../src/ports/generation-events.js';
import type { Logger } from '../../src/ports/logger.js';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { TEST_REDIS_URL, skipWithout } from '../../src/test-support/services.js';
import { describeGenerationEventsContract } from './generation-events.contract.js';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

describeGenerationEventsContract('in one process', async () => ({ events: createMemoryGenerationEvents() }));

const skip = await skipWithout('redis');
const opened: { events: GenerationEvents; publisher: Redis }[] = [];
const prefixes: string[] = [];

afterAll(async () => {
  for (const { events, publisher } of opened) {
    await events.close();
    publisher.disconnect();
  }
  if (!skip) for (const prefix of prefixes) await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('generation events in Redis', () => {
  describeGenerationEventsContract(
    'Redis pub/sub',
    async () => {
      const prefix = `${freshRedisPrefix('generation-events')}:`;
      prefixes.push(prefix);
      // Each instance has its own connections, as each process would.
      const instance = () => {
        const publisher = new Redis(TEST_REDIS_URL);
        const events = createRedisGenerationEvents({ url: TEST_REDIS_URL, prefix, publisher, logger: quiet });
        opened.push({ events, publisher });
        return events;
      };
      return { events: instance(), peer: async () => instance() };
    },
    { shared: true },
  );
});
