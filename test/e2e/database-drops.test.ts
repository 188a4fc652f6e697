import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, TEST_DATABASE_URL } from '../../src/test-support/services.js';
import { startTcpProxy, type TcpProxy } from '../../src/test-support/tcp-proxy.js';
import { createTestSchema } from '../../src/test-support/test-schema.js';
import { freePort, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * A real `imagegate serve` on PostgreSQL reached through a loopback proxy that drops every connection at
 * random moments: a dropped connection fails the operation in hand, never the process.
 */
const skip = await skipWithout('postgres');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const ROUNDS = 20;

let proxy: TcpProxy;
let server: ServerProcess | undefined;
let dropSchema: (() => Promise<void>) | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** A mix of what touches the database: reads, writes in a transaction, a generate (charges, blob, record). */
function traffic(url: string): Promise<number>[] {
  const headers = { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' };
  const requests = [
    () => fetch(`${url}/api/images`, { headers }),
    () => fetch(`${url}/api/collections`, { method: 'POST', headers, body: JSON.stringify({ name: 'drops' }) }),
    () => fetch(`${url}/api/generate`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'a lighthouse', width: 64, height: 64 }) }),
  ];
  return Array.from({ length: 6 }, () =>
    pick(requests)()
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      })
      .catch(() => 0),
  );
}

async function answersAgain(url: string): Promise<number> {
  const deadline = Date.now() + 15_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = await fetch(`${url}/api/images`, { headers: { Authorization: `Bearer ${ADMIN}` } })
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return status;
    await sleep(200);
  }
  return status;
}

describe.skipIf(skip)('PostgreSQL connections dropped under a running server (real process)', () => {
  beforeAll(async () => {
    proxy = await startTcpProxy({ host: new URL(TEST_DATABASE_URL).hostname, port: Number(new URL(TEST_DATABASE_URL).port || 5432) });
    const schema = await createTestSchema(TEST_DATABASE_URL);
    dropSchema = schema.drop;
    const url = new URL(TEST_DATABASE_URL);
    url.port = String(proxy.port);
    url.hostname = '127.0.0.1';
    // Drops while it starts: its first connections (the migration lock's among them) may go at any moment.
    const starting = startServerProcess({
      DATA_DIR: tempDataDir(),
      DATABASE_URL: url.toString(),
      DATABASE_SCHEMA: schema.name,
      DATABASE_POOL_SIZE: '4',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      ADMIN_API_KEY: ADMIN,
      CPU_WORKERS: '1',
    });
    await sleep(300 + Math.random() * 700);
    proxy.drop();
    server = await starting;
  }, 60_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.cut();
    await dropSchema?.();
  });

  it(`never exits, across ${ROUNDS} drops at start-up, idle and mid-request, and answers again once connections are allowed`, async () => {
    const running = server;
    if (running === undefined) throw new Error('no server');
    expect(running.child.exitCode, running.output()).toBeNull();
    expect(await answersAgain(running.url), running.output()).toBe(200);

    for (let round = 0; round < ROUNDS; round += 1) {
      const moment = pick(['idle', 'mid-request', 'refused'] as const);
      let inFlight: Promise<number>[] = [];
      if (moment === 'idle') {
        await sleep(Math.random() * 300);
      } else {
        inFlight = traffic(running.url);
        await sleep(Math.random() * 150);
      }
      proxy.drop();
      if (moment === 'refused') {
        // The server is unreachable for a while: requests in hand fail, new ones too, the process stays.
        proxy.setMode('refuse');
        inFlight.push(...traffic(running.url));
        await sleep(200 + Math.random() * 400);
        proxy.setMode('relay');
      }
      await Promise.all(inFlight);
      await sleep(50);
      expect(running.child.exitCode, `round ${round} (${moment}):\n${running.output()}`).toBeNull();
    }

    expect(await answersAgain(running.url), running.output()).toBe(200);
    expect(running.child.exitCode).toBeNull();
    expect(running.output()).not.toContain("Unhandled 'error' event");
  }, 120_000);

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After within 5 s while the database is refused or silent, /health 200 and /health/ready 503 meanwhile', async () => {
    const running = server;
    if (running === undefined) throw new Error('no server');
    const headers = { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' };
    const generate = () =>
      fetch(`${running.url}/api/generate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ prompt: 'a lighthouse', width: 64, height: 64 }),
        signal: AbortSignal.timeout(5_000),
      });
    const list = () => fetch(`${running.url}/api/images?limit=1`, { headers, signal: AbortSignal.timeout(5_000) });
    try {
      for (const mode of ['refuse', 'blackhole'] as const) {
        proxy.setMode(mode);
        proxy.drop();
        const answers = await Promise.all([generate(), list(), generate(), list()]);
        for (const res of answers) {
          const body = (await res.json()) as { code?: string };
          expect({ mode, status: res.status, code: body.code }).toEqual({ mode, status: 503, code: 'SERVICE_UNAVAILABLE' });
          expect(res.headers.get('Retry-After')).toBe('5');
        }
        expect((await fetch(`${running.url}/health`, { signal: AbortSignal.timeout(5_000) })).status).toBe(200);
        const ready = await fetch(`${running.url}/health/ready`, { signal: AbortSignal.timeout(5_000) });
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { database: expect.not.stringMatching(/^ok$/), storage: 'ok' } });
      }
    } finally {
      proxy.setMode('relay');
      proxy.drop();
    }
    expect(await answersAgain(running.url), running.output()).toBe(200);
    expect((await fetch(`${running.url}/health/ready`)).status).toBe(200);
    expect(running.child.exitCode).toBeNull();
  }, 60_000);
});

describe('a DATABASE_URL nothing answers at (real process)', () => {
  it('still exits 1 at once with the one-line reason, not after the start-up retries meant for dropped connections', async () => {
    const started = Date.now();
    const failed = await startServerProcess({ DATA_DIR: tempDataDir(), DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    expect(await failed.exited).toBe(1);
    expect(failed.output()).toContain('nothing answers at that address');
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
