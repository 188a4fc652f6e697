import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { skipWithout, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { startTcpProxy, type TcpProxy } from '../../src/test-support/tcp-proxy.js';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * Two real servers with Redis behind a loopback proxy that cuts it and holds it silent: one limits fail
 * closed (the default), the other falls back to in-memory counters. No request waits on Redis.
 */
const skip = await skipWithout('redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const prefix = freshRedisPrefix('outage');

let proxy: TcpProxy;
let closed: ServerProcess | undefined;
let memory: ServerProcess | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Status and Retry-After of an authenticated request, or 0 when no answer came within 5 s. */
async function ask(server: ServerProcess): Promise<{ status: number; retryAfter: string | null }> {
  try {
    const res = await fetch(`${server.url}/api/images?limit=1`, { headers: { Authorization: `Bearer ${ADMIN}` }, signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('Retry-After') };
  } catch {
    return { status: 0, retryAfter: null };
  }
}

describe.skipIf(skip)('Redis cut and held under running servers (real processes)', () => {
  beforeAll(async () => {
    const target = new URL(TEST_REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const env = { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_PREFIX: prefix, ADMIN_API_KEY: ADMIN, CPU_WORKERS: '1' };
    [closed, memory] = await Promise.all([
      startServerProcess({ ...env, DATA_DIR: tempDataDir() }),
      startServerProcess({ ...env, DATA_DIR: tempDataDir(), RATE_LIMIT_FALLBACK: 'memory' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await closed?.stop('SIGKILL');
    await memory?.stop('SIGKILL');
    await proxy?.cut();
    await deleteRedisKeys(prefix);
  });

  it('answers every request within 5 s: 503 with Retry-After when limits fail closed, 2xx with the memory fallback, and both again once Redis is back', async () => {
    if (closed === undefined || memory === undefined) throw new Error('no servers');
    expect((await ask(closed)).status).toBe(200);
    expect((await ask(memory)).status).toBe(200);

    for (const mode of ['blackhole', 'refuse'] as const) {
      proxy.setMode(mode);
      if (mode === 'refuse') proxy.drop();
      // Held for a while: requests keep coming during the outage, not just at its start.
      for (let round = 0; round < 3; round += 1) {
        const [onClosed, onMemory] = await Promise.all([
          Promise.all([ask(closed), ask(closed), ask(closed)]),
          Promise.all([ask(memory), ask(memory), ask(memory)]),
        ]);
        for (const answer of onClosed) {
          expect(answer.status === 503 || (answer.status >= 200 && answer.status < 300), `${mode}: ${JSON.stringify(answer)}`).toBe(true);
          if (answer.status === 503) expect(answer.retryAfter).toBe('5');
        }
        expect(
          onClosed.some((answer) => answer.status === 503),
          `${mode}: ${JSON.stringify(onClosed)}`,
        ).toBe(true);
        for (const answer of onMemory) expect(answer.status, `${mode}: ${JSON.stringify(answer)}\n${memory.output().slice(-2000)}`).toBe(200);
        await sleep(300);
      }
      const ready = await fetch(`${closed.url}/health/ready`, { signal: AbortSignal.timeout(5_000) });
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { redis: expect.not.stringMatching(/^ok$/), database: 'ok' } });
      expect((await fetch(`${closed.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
    }

    proxy.setMode('relay');
    proxy.drop();
    for (const server of [closed, memory]) {
      const deadline = Date.now() + 15_000;
      let last = await ask(server);
      while (last.status !== 200 && Date.now() < deadline) {
        await sleep(250);
        last = await ask(server);
      }
      expect(last.status, server.output().slice(-2000)).toBe(200);
      // Ready again by itself, without a restart.
      // (The memory-fallback server answers 200 throughout, so its Redis client may still be reconnecting here.)
      let ready = 0;
      while (ready !== 200 && Date.now() < deadline + 10_000) {
        ready = (await fetch(`${server.url}/health/ready`, { signal: AbortSignal.timeout(5_000) })).status;
        if (ready !== 200) await sleep(250);
      }
      expect(ready, server.output().slice(-2000)).toBe(200);
      expect(server.child.exitCode).toBeNull();
    }
  }, 120_000);
});
