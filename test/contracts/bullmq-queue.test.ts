import { pino } from 'pino';
import { afterAll, describe } from 'vitest';
import { createBullmqQueue } from '../../src/adapters/queue/bullmq-queue.js';
import type { Clock } from '../../src/ports/clock.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { TEST_REDIS_URL, skipWithout } from '../../src/test-support/services.js';
import { startTcpProxy } from '../../src/test-support/tcp-proxy.js';
import { CONTRACT_RETRY, describeJobQueueContract } from './job-queue.contract.js';

const skip = await skipWithout('redis');
const prefixes: string[] = [];

/** Short locks and stall checks, so a dead worker's job comes back within a second or two. */
const open = (prefix: string, clock: Clock, connection = TEST_REDIS_URL, closeTimeoutMs?: number) =>
  createBullmqQueue({
    connection,
    prefix,
    clock,
    logger: pino({ level: 'silent' }),
    lockDurationMs: 1000,
    stalledIntervalMs: 250,
    pollMs: 10,
    closeTimeoutMs,
    retry: CONTRACT_RETRY,
  });

afterAll(async () => {
  if (!skip) for (const prefix of prefixes) await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('BullMQ on Redis', () => {
  // With a test clock, delayed jobs wait for that clock (real-time delays: test/contracts/jobs/bullmq-queue.test.ts).
  describeJobQueueContract('BullMQ on Redis', async () => {
    const prefix = freshRedisPrefix('bullmq-contract');
    prefixes.push(prefix);
    const clock = createTestClock();
    // The first queue reaches Redis through a proxy, so `reopen` can make its process vanish: its
    // connections drop and its job's lock lapses, as after a kill -9.
    const redis = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const proxied = new URL(TEST_REDIS_URL);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const queue = open(prefix, clock, proxied.toString(), 100);
    return {
      queue,
      advance: (ms) => clock.advance(ms),
      reopen: async () => {
        await proxy.cut();
        return open(prefix, clock);
      },
      peer: async () => open(prefix, clock),
      close: async () => {
        await queue.close();
        await proxy.cut();
      },
    };
  });
});
