import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { createRedisRateLimiter } from '../../src/adapters/rate-limit/redis-rate-limiter.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { TEST_REDIS_URL, skipWithout } from '../../src/test-support/services.js';
import { describeRateLimiterContract } from './rate-limiter.contract.js';

const skip = await skipWithout('redis');
const clients: Redis[] = [];
const prefixes: string[] = [];

afterAll(async () => {
  for (const client of clients) client.disconnect();
  if (!skip) for (const prefix of prefixes) await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('rate limits in Redis', () => {
  describeRateLimiterContract(
    'rate-limiter-flexible on Redis',
    async () => {
      // A fresh prefix per test: the test clock repeats the same minutes on every run.
      const prefix = freshRedisPrefix('rate-limit');
      prefixes.push(prefix);
      const clock = createTestClock();
      // Each instance has its own connection, as each API process would.
      const instance = () => {
        const client = new Redis(TEST_REDIS_URL);
        clients.push(client);
        return createRedisRateLimiter({ client, prefix, clock });
      };
      return { limiter: instance(), setTime: (iso) => clock.set(iso), peer: async () => instance() };
    },
    { shared: true },
  );
});
