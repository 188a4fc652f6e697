import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe } from 'vitest';
import { createBullmqQueue } from '../../src/adapters/queue/bullmq-queue.js';
import { deleteRedisKeys, freshRedisPrefix, redisKeysUnder } from '../../src/test-support/redis-keys.js';
import { TEST_REDIS_URL, skipWithout } from '../../src/test-support/services.js';
import { startTcpProxy } from '../../src/test-support/tcp-proxy.js';
import { describeJobQueueContract } from './job-queue.contract.js';

const skip = await skipWithout('redis');
const prefixes: string[] = [];

/** Short locks and stall checks, so a dead worker's job comes back within a second or two. */
const open = (prefix: string, connection = TEST_REDIS_URL, closeTimeoutMs?: number) =>
  createBullmqQueue({ connection, prefix, logger: pino({ level: 'silent' }), lockDurationMs: 1000, stalledIntervalMs: 250, closeTimeoutMs });

/** Makes the delayed jobs that are due within `ms` due now: BullMQ measures delays on the real clock. */
async function promoteDue(prefix: string, ms: number): Promise<void> {
  const client = new Redis(TEST_REDIS_URL);
  try {
    for (const key of await redisKeysUnder(client, prefix)) {
      if (!key.endsWith(':delayed')) continue;
      const queue = new Queue(key.slice(prefix.length + 1, -':delayed'.length), { connection: client, prefix });
      for (const job of await queue.getDelayed()) if (job.timestamp + job.delay <= Date.now() + ms) await job.promote();
      await queue.close();
    }
  } finally {
    client.disconnect();
  }
}

afterAll(async () => {
  if (!skip) for (const prefix of prefixes) await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('BullMQ on Redis', () => {
  describeJobQueueContract('BullMQ on Redis', async () => {
    const prefix = freshRedisPrefix('bullmq-contract');
    prefixes.push(prefix);
    // The first queue reaches Redis through a proxy, so `reopen` can make its process vanish: its
    // connections drop and its job's lock lapses, as after a kill -9.
    const redis = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const proxied = new URL(TEST_REDIS_URL);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const queue = open(prefix, proxied.toString(), 100);
    return {
      queue,
      now: () => new Date(),
      advance: (ms) => promoteDue(prefix, ms),
      reopen: async () => {
        await proxy.cut();
        return open(prefix);
      },
      peer: async () => open(prefix),
      close: async () => {
        await queue.close();
        await proxy.cut();
      },
    };
  });
});
