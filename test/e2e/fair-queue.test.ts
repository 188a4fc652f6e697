import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { skipWithout, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { prediction, replicateFlow } from '../../src/adapters/providers/replicate/replicate.fake.js';
import { sampleImages } from '../../src/test-support/fake-images.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../src/test-support/loopback-server.js';
import { adminQuery, dropDeployment } from './deployment.js';
import { startServerProcess, tempDataDir } from './spawn-server.js';

/**
 * Issue 38: one key's backlog cannot starve another key. Key A queues more generations than a server runs at once
 * (64) on a slow loopback Replicate that takes few calls at a time (PROVIDER_MAX_CONCURRENCY), so they wait both in
 * the job queue and for the provider; key B then queues one, and only then do predictions start to end. Measured by the order the predictions were created in,
 * never by wall-clock thresholds: B's is created within a round of the provider's slots, not behind A's backlog.
 * On the embedded setup (the database queue, SQLite) and on PostgreSQL + Redis (BullMQ).
 */
const skipScaleOut = await skipWithout('postgres', 'redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const MODEL = 'replicate/black-forest-labs/flux-schnell';
/** More than the 64 generations a process runs at once: the last ones wait in the queue itself. */
const BACKLOG = 80;
const PROVIDER_SLOTS = 8;
/** How long each prediction stays `processing` once the fake is opened. */
const TAKES_MS = 2_000;

interface Fake {
  server: LoopbackServer;
  /** The prompt of each prediction created, in the order they were. */
  created: string[];
  /** Lets predictions end (each TAKES_MS after it was created): until then every one stays `processing`. */
  open(): void;
}

/**
 * Replicate's flow, every prediction `processing` until the test opens the fake and then for TAKES_MS after its
 * creation: the backlog is all queued before any call ends, however slowly a loaded machine accepts it.
 */
async function slowReplicate(): Promise<Fake> {
  const flow = replicateFlow(await sampleImages());
  const createdAt = new Map<string, number>();
  const created: string[] = [];
  let opened = false;
  const server = await startLoopbackServer((request, response, fake) => {
    const status = /^\/v1\/predictions\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && status !== undefined && (!opened || Date.now() - (createdAt.get(status) ?? 0) < TAKES_MS)) {
      return sendJson(response, 200, prediction(request.headers, status, 'processing'));
    }
    if (request.method === 'POST' && /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(request.path)) {
      const body = request.body as { input?: { prompt?: unknown } } | undefined;
      created.push(String(body?.input?.prompt));
      // The flow numbers its predictions pred1, pred2, … as they come, as this count does.
      createdAt.set(`pred${created.length}`, Date.now());
    }
    return flow(request, response, fake);
  });
  return { server, created, open: () => (opened = true) };
}

async function call<T>(
  origin: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function showStarvationIsGone(env: Record<string, string>): Promise<void> {
  const fake = await slowReplicate();
  const server = await startServerProcess({
    ...env,
    ADMIN_API_KEY: ADMIN,
    REPLICATE_API_TOKEN: 'r8_test',
    REPLICATE_BASE_URL: fake.server.origin,
    PROVIDER_MAX_CONCURRENCY: String(PROVIDER_SLOTS),
  });
  try {
    const keyOf = async (name: string) =>
      (await call<{ key: string }>(server.url, ADMIN, 'POST', '/api/keys', { name, permissions: ['generate', 'read'] })).body.key;
    const [a, b] = [await keyOf('a'), await keyOf('b')];
    const generate = (key: string, prompt: string) =>
      call<{ id: string; queue_position?: number }>(
        server.url,
        key,
        'POST',
        '/api/generate',
        { prompt, model: MODEL, width: 512, height: 512 },
        { Prefer: 'respond-async' },
      );

    // A's backlog, a few requests at a time; nothing ends until B's is queued too.
    for (let at = 0; at < BACKLOG; at += 8) {
      const answers = await Promise.all(Array.from({ length: Math.min(8, BACKLOG - at) }, (_, n) => generate(a, `a ${at + n}`)));
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
    }
    for (let waited = 0; fake.created.length < PROVIDER_SLOTS && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const lone = await generate(b, 'b alone');
    expect(lone.status).toBe(202);
    const createdBeforeB = fake.created.length;
    // A's calls hold every provider slot; the rest of its backlog waits for them (and past 64, in the queue itself).
    expect(createdBeforeB).toBe(PROVIDER_SLOTS);
    fake.open();

    // Read every quarter second: the key's rate limit (100 a minute) counts these reads too.
    let done: { status: string } | undefined;
    for (let waited = 0; done === undefined && waited < 60_000; waited += 250) {
      const now = await call<{ status: string }>(server.url, b, 'GET', `/api/generations/${lone.body.id}`);
      if (now.status === 200 && now.body.status !== 'queued' && now.body.status !== 'running') done = now.body;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(done?.status).toBe('succeeded');
    const bAt = fake.created.indexOf('b alone');
    // Between B's acceptance and its prediction, A's calls got the slots that freed meanwhile: a round or two, not
    // the backlog (first in, first out, B's would come after all of A's, about BACKLOG - createdBeforeB of them).
    expect(bAt - createdBeforeB).toBeLessThanOrEqual(2 * PROVIDER_SLOTS);
    // When B's image was done, rounds of A's backlog had not reached the provider yet (first in, first out: none).
    expect(fake.created.filter((prompt) => prompt.startsWith('a ')).length).toBeLessThanOrEqual(BACKLOG - 2 * PROVIDER_SLOTS);
  } finally {
    await server.stop('SIGKILL');
    await fake.server.close();
  }
}

describe("one key's backlog cannot starve another key's generation", () => {
  it('on the embedded setup (SQLite, the database queue)', async () => {
    await showStarvationIsGone({ DATA_DIR: tempDataDir() });
  }, 120_000);

  it.skipIf(skipScaleOut)(
    'on PostgreSQL and Redis (BullMQ)',
    async () => {
      const database = `imagegate_e2e_fair_${process.pid}_${randomBytes(3).toString('hex')}`;
      const prefix = freshRedisPrefix('e2e-fair');
      await adminQuery(`create database "${database}"`);
      try {
        const url = new URL(TEST_DATABASE_URL);
        url.pathname = `/${database}`;
        await showStarvationIsGone({ DATA_DIR: tempDataDir(), DATABASE_URL: url.toString(), REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
      } finally {
        await dropDeployment(database, prefix);
      }
    },
    120_000,
  );
});
