import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout } from '../../src/test-support/services.js';
import { Webhook } from 'standardwebhooks';
import { TEST_WEBHOOK_SECRET } from '../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { prediction, replicateFlow } from '../../src/adapters/providers/replicate/replicate.fake.js';
import { sampleImages } from '../../src/test-support/fake-images.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../src/test-support/loopback-server.js';
import { adminQuery, deploymentEnv, dropDeployment } from './deployment.js';
import { startCliProcess, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * Issue 38: a generation is a durable job, not its HTTP connection. A paid generation on a loopback Replicate that
 * takes 3 s; the caller hangs up 0.5 s in. The image lands in the gallery and its charge settles `succeeded`, with
 * one prediction created: on the embedded setup, and on PostgreSQL + Redis + S3 with two API processes and a worker,
 * where the generation is also followed and cancelled through another API process than the one that accepted it.
 */
const skipScaleOut = await skipWithout('postgres', 'redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const MODEL = 'replicate/black-forest-labs/flux-schnell';
const TAKES_MS = 3_000;
const BODY = { prompt: 'a lighthouse in a storm', model: MODEL, width: 512, height: 512 };

interface Fake {
  server: LoopbackServer;
  creations: () => number;
}

/** Replicate's flow, each prediction `processing` until TAKES_MS after it was created. */
async function slowReplicate(): Promise<Fake> {
  const flow = replicateFlow(await sampleImages());
  const createdAt = new Map<string, number>();
  let next = 0;
  const server = await startLoopbackServer((request, response, fake) => {
    const status = /^\/v1\/predictions\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && status !== undefined && Date.now() - (createdAt.get(status) ?? 0) < TAKES_MS) {
      return sendJson(response, 200, prediction(request.headers, status, 'processing'));
    }
    if (request.method === 'POST' && /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(request.path)) createdAt.set(`pred${(next += 1)}`, Date.now());
    return flow(request, response, fake);
  });
  return { server, creations: () => server.requests.filter((r) => r.method === 'POST' && /\/predictions$/.test(r.path)).length };
}

const headers = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json', ...extra });
const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url, { headers: headers() })).json()) as T;

/** POST /api/generate, hung up on 0.5 s in; resolves once the hang-up happened. */
async function generateAndHangUp(origin: string): Promise<void> {
  const controller = new AbortController();
  const pending = fetch(`${origin}/api/generate`, { method: 'POST', headers: headers(), body: JSON.stringify(BODY), signal: controller.signal });
  setTimeout(() => controller.abort(), 500);
  await expect(pending).rejects.toThrow();
}

async function expectImageAndCharge(origin: string): Promise<void> {
  const images = await eventually(async () => {
    const page = await getJson<{ images: { prompt: string; model: string }[] }>(`${origin}/api/images`);
    return page.images.length > 0 ? page.images : undefined;
  }, 30_000);
  expect(images).toEqual([expect.objectContaining({ prompt: BODY.prompt, model: MODEL })]);
  const ledger = await getJson<{ charges: { outcome: string }[] }>(`${origin}/api/analytics/charges`);
  expect(ledger.charges.map((charge) => charge.outcome)).toEqual(['succeeded']);
}

describe('a caller who hangs up on a paid generation', () => {
  it('on the embedded setup: the image still lands in the gallery, charged once as succeeded', async () => {
    const fake = await slowReplicate();
    const server = await startServerProcess({
      DATA_DIR: tempDataDir(),
      ADMIN_API_KEY: ADMIN,
      REPLICATE_API_TOKEN: 'r8_test',
      REPLICATE_BASE_URL: fake.server.origin,
    });
    try {
      await generateAndHangUp(server.url);
      await expectImageAndCharge(server.url);
      expect(fake.creations()).toBe(1);
    } finally {
      await server.stop('SIGKILL');
      await fake.server.close();
    }
  }, 90_000);
});

describe.skipIf(skipScaleOut)('generations across processes: PostgreSQL, Redis and S3, two API processes and a worker', () => {
  const database = `imagegate_e2e_gen_${process.pid}_${randomBytes(3).toString('hex')}`;
  const prefix = freshRedisPrefix('e2e-gen');
  let s3: S3TestServer;
  let fake: Fake;
  const processes: ServerProcess[] = [];
  let api1: ServerProcess;
  let api2: ServerProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server({ buckets: ['imagegate'] });
    fake = await slowReplicate();
    receiver = await startWebhookReceiver();
    const env = {
      ...deploymentEnv({ database, redisPrefix: prefix, s3, bucket: 'imagegate', adminKey: ADMIN }),
      REPLICATE_API_TOKEN: 'r8_test',
      REPLICATE_BASE_URL: fake.server.origin,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    };
    // One after the other: the first applies the migrations.
    api1 = await startServerProcess(env, ['--no-workers']);
    processes.push(api1);
    api2 = await startServerProcess(env, ['--no-workers']);
    processes.push(api2);
    processes.push(await startCliProcess(['worker'], env, 'imagegate worker started'));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((process_) => process_.stop('SIGKILL')));
    await fake?.server.close();
    await receiver?.close();
    await s3?.close();
    await dropDeployment(database, prefix);
  }, 60_000);

  it('keeps the image of a caller who hung up on one API process, seen from the other', async () => {
    await generateAndHangUp(api1.url);
    await expectImageAndCharge(api2.url);
    expect(fake.creations()).toBe(1);
  }, 60_000);

  it('answers respond-async on one process, streams its events on the other to generation.completed, and cancels through either', async () => {
    const accepted = await fetch(`${api1.url}/api/generate`, { method: 'POST', headers: headers({ Prefer: 'respond-async' }), body: JSON.stringify(BODY) });
    expect(accepted.status).toBe(202);
    const location = accepted.headers.get('Location') ?? '';
    const stream = await (await fetch(`${api2.url}${location}/events`, { headers: headers() })).text();
    const events = [...stream.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(events.at(-1)).toBe('generation.completed');
    expect(events[0]).toMatch(/^generation\.(queued|started)$/);
    expect(await getJson(`${api1.url}${location}`)).toMatchObject({ status: 'succeeded', image: { prompt: BODY.prompt } });

    // Started on api1, cancelled on api2 while its prediction runs: the worker stops it.
    const second = await fetch(`${api1.url}/api/generate`, { method: 'POST', headers: headers({ Prefer: 'respond-async' }), body: JSON.stringify(BODY) });
    const secondAt = second.headers.get('Location') ?? '';
    await eventually(async () => ((await getJson<{ status: string }>(`${api2.url}${secondAt}`)).status === 'running' ? true : undefined), 20_000);
    // Once Replicate has the prediction and the worker polls it (so the worker knows its id): a cancel then stops it there.
    const polled = () => fake.server.requests.some((r) => r.method === 'GET' && /^\/v1\/predictions\/pred3$/.test(r.path));
    await eventually(async () => (polled() ? true : undefined), 20_000);
    const cancelled = await fetch(`${api2.url}${secondAt}/cancel`, { method: 'POST', headers: headers() });
    expect(cancelled.status).toBe(200);
    const ended = await eventually(async () => {
      const now = await getJson<{ status: string }>(`${api1.url}${secondAt}`);
      return now.status === 'running' ? undefined : now;
    }, 20_000);
    expect(ended).toMatchObject({ status: 'cancelled', error: { code: 'GENERATION_CANCELLED' } });
    // The worker told Replicate to stop the prediction, and the ledger says what Replicate bills for it.
    const prediction = fake.server.requests.filter((r) => r.method === 'POST' && /\/predictions$/.test(r.path)).length;
    // Sent without waiting for its answer (the generation ends at once): it may land a moment after.
    const cancels = () => fake.server.requests.filter((r) => r.method === 'POST' && /^\/v1\/predictions\/[^/]+\/cancel$/.test(r.path));
    await eventually(async () => (cancels().length > 0 ? true : undefined), 10_000);
    expect(cancels()).toHaveLength(1);
    expect(prediction).toBe(3);
    const ledger = await getJson<{ charges: { outcome: string }[] }>(`${api2.url}/api/analytics/charges`);
    expect(ledger.charges.map((charge) => charge.outcome).sort()).toEqual(['charged_no_image', 'succeeded', 'succeeded']);
  }, 90_000);

  it('sends a generation accepted by an API process its own webhook from the worker, signed, once', async () => {
    const accepted = await fetch(`${api2.url}/api/generate`, {
      method: 'POST',
      headers: headers({ Prefer: 'respond-async' }),
      body: JSON.stringify({ ...BODY, prompt: 'a lighthouse, told by webhook', webhook_url: receiver.url }),
    });
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    const [hook] = await receiver.waitFor(1, 30_000);
    const payload = new Webhook(TEST_WEBHOOK_SECRET).verify(hook?.body ?? '', hook?.headers as Record<string, string>) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event: 'generation.completed',
      generation_id: id,
      status: 'succeeded',
      image: { prompt: 'a lighthouse, told by webhook' },
    });
    // Delivered once: nothing more arrives after the receiver answered 2xx.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.received).toHaveLength(1);
    const deliveries = await eventually(async () => {
      const shown = await getJson<{ webhook: { deliveries: { status: string; attempt_count: number }[] } }>(`${api1.url}/api/generations/${id}`);
      return shown.webhook.deliveries.every((delivery) => delivery.status !== 'pending') ? shown.webhook.deliveries : undefined;
    });
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempt_count: 1 })]);
  }, 60_000);
});
