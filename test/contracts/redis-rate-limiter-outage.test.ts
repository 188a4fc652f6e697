import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitRedisClient } from '../../src/adapters/rate-limit/redis-client.js';
import { createRedisRateLimiter } from '../../src/adapters/rate-limit/redis-rate-limiter.js';
import { DependencyUnavailable } from '../../src/ports/dependency-unavailable.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { skipWithout, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { startTcpProxy, type TcpProxy } from '../../src/test-support/tcp-proxy.js';

/** The Redis rate limiter on the request-path client, with Redis silent behind a proxy. */
const skip = await skipWithout('redis');
const prefix = freshRedisPrefix('rate-limit-outage');
let proxy: TcpProxy;
let client: Redis;

beforeAll(async () => {
  if (skip) return;
  const target = new URL(TEST_REDIS_URL);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  client = createRateLimitRedisClient({ url: `redis://127.0.0.1:${proxy.port}`, commandTimeoutMs: 300 });
  await new Promise((resolve) => client.once('ready', resolve));
});
afterAll(async () => {
  if (skip) return;
  client.disconnect();
  await proxy.cut();
  await deleteRedisKeys(prefix);
});

describe.skipIf(skip)('rate limits while Redis does not answer', () => {
  it('fail closed by default: consume rejects with DependencyUnavailable (redis) within the command timeout, and counts again once Redis is back', async () => {
    const limiter = createRedisRateLimiter({ client, prefix: `${prefix}:closed`, clock: createTestClock() });
    expect((await limiter.consume('key', 5)).allowed).toBe(true);
    proxy.setMode('blackhole');
    const started = Date.now();
    const failure = await limiter.consume('key', 5).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DependencyUnavailable);
    expect(failure).toMatchObject({ dependency: 'redis' });
    expect(Date.now() - started).toBeLessThan(3_000);
    proxy.setMode('relay');
    proxy.drop();
    await new Promise((resolve) => client.once('ready', resolve));
    expect(await limiter.consume('key', 5)).toMatchObject({ allowed: true });
  });

  it('with the memory fallback, keeps counting in this process: the limit still holds', async () => {
    const limiter = createRedisRateLimiter({ client, prefix: `${prefix}:memory`, clock: createTestClock(), fallback: 'memory' });
    proxy.setMode('blackhole');
    try {
      const decisions = [];
      for (let i = 0; i < 3; i += 1) decisions.push(await limiter.consume('key', 2));
      expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    } finally {
      proxy.setMode('relay');
      proxy.drop();
    }
  });
});
