import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout } from '../../src/test-support/services.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { replicateFlow } from '../../src/adapters/providers/replicate/replicate.fake.js';
import { sampleImages } from '../../src/test-support/fake-images.js';
import { startLoopbackServer, type LoopbackServer } from '../../src/test-support/loopback-server.js';
import { adminQuery, deploymentEnv, dropDeployment } from './deployment.js';
import { startCliProcess, startServerProcess, type ServerProcess } from './spawn-server.js';

/**
 * The deployment docs/deployment.md describes, for real: two API processes (`serve --no-workers`) and a `worker`,
 * on PostgreSQL, an S3 server (s3rver) and Redis, each a separate process on real sockets.
 */
const skip = await skipWithout('postgres', 'redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const BUCKET = 'imagegate';
const database = `imagegate_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
const prefix = freshRedisPrefix('e2e');

let s3: S3TestServer;
let receiver: WebhookReceiver;
/** Replicate's wire format on loopback, answering each create after 0.7 s: the paid provider of the budget test. */
let replicate: LoopbackServer;
let env: Record<string, string>;
const processes: ServerProcess[] = [];
let api1: ServerProcess;
let api2: ServerProcess;
let worker: ServerProcess;

const call = (server: ServerProcess, key: string, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function createKey(body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const res = await call(api1, ADMIN, 'POST', '/api/keys', { name: 'e2e', ...body });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

async function startWorker(): Promise<void> {
  worker = await startCliProcess(['worker'], env, 'imagegate worker started');
  processes.push(worker);
}

describe.skipIf(skip)('two API processes and a worker on PostgreSQL, S3 and Redis', () => {
  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server({ buckets: [BUCKET] });
    receiver = await startWebhookReceiver();
    const flow = replicateFlow(await sampleImages());
    replicate = await startLoopbackServer(async (request, response, server) => {
      if (request.method === 'POST') await new Promise((resolve) => setTimeout(resolve, 700));
      return flow(request, response, server);
    });
    env = {
      ...deploymentEnv({ database, redisPrefix: prefix, s3, bucket: BUCKET, adminKey: ADMIN }),
      WORKER_CONCURRENCY: '1',
      REPLICATE_API_TOKEN: 'r8_e2e',
      REPLICATE_BASE_URL: replicate.origin,
    };
    // Both API processes start together, so both migrate at once: the advisory lock makes that safe.
    [api1, api2] = await Promise.all([startServerProcess(env, ['--no-workers']), startServerProcess(env, ['--no-workers'])]);
    processes.push(api1, api2);
    await startWorker();
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((process_) => process_.stop('SIGKILL')));
    await receiver?.close();
    await replicate?.close();
    await s3?.close();
    await dropDeployment(database, prefix);
  }, 60_000);

  it('reads on one API process an image generated on the other, served by the S3 server at r2_url', async () => {
    const created = await call(api1, ADMIN, 'POST', '/api/generate', { prompt: 'a harbour at dawn', width: 256, height: 192 });
    expect(created.status).toBe(201);
    const image = (await created.json()) as { id: string; r2_key: string; r2_url: string };
    expect(image.r2_url).toBe(`${s3.endpoint}/${BUCKET}/${image.r2_key}`);

    const read = await call(api2, ADMIN, 'GET', `/api/images/${image.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: image.id, width: 256, height: 192 });

    const file = await fetch(image.r2_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('gives a standard key exactly 100 of 150 concurrent requests spread over both API processes', async () => {
    const { key } = await createKey({ permissions: ['read'], plan: 'standard' });
    // The counters are per wall-clock minute: a burst that straddles a minute boundary starts a new count half-way.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) => call(i % 2 === 0 ? api1 : api2, key, 'GET', '/api/models?limit=1').then((res) => res.status)),
    );
    const count = (status: number) => statuses.filter((candidate) => candidate === status).length;
    console.log(`scale-out e2e: 150 concurrent requests on one standard key over 2 API processes: ${count(200)} x 200, ${count(429)} x 429`);
    expect(count(200)).toBe(100);
    expect(count(429)).toBe(50);
  });

  it('makes exactly 5 of 20 concurrent paid generations spread over both API processes on a key whose daily budget fits 5', async () => {
    const { key } = await createKey({ permissions: ['generate', 'read'], daily_budget_usd: 0.015 });
    const body = { prompt: 'a lighthouse on a cliff', model: 'replicate/black-forest-labs/flux-schnell', width: 512, height: 512 };
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? api1 : api2, key, 'POST', '/api/generate', body).then((res) => res.status)),
    );
    const count = (status: number) => statuses.filter((candidate) => candidate === status).length;
    console.log(`scale-out e2e: 20 concurrent paid generations on a key that fits 5, over 2 API processes: ${count(201)} x 201, ${count(402)} x 402`);
    expect(count(201)).toBe(5);
    expect(count(402)).toBe(15);
    expect(replicate.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/predictions'))).toHaveLength(5);
  }, 60_000);

  it('refuses a key on every API process as soon as one of them revoked it', async () => {
    const { id, key } = await createKey({ permissions: ['read'] });
    expect((await call(api2, key, 'GET', '/api/images')).status).toBe(200);
    expect((await call(api1, ADMIN, 'DELETE', `/api/keys/${id}`)).status).toBe(200);
    const started = Date.now();
    await eventually(async () => ((await call(api2, key, 'GET', '/api/images')).status === 401 ? true : undefined), 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('finishes a batch after its worker is killed, with every image exactly once and one webhook', async () => {
    const prompts = Array.from({ length: 8 }, (_, i) => `a lighthouse in a storm, view ${i}`);
    const res = await call(api1, ADMIN, 'POST', '/api/batch/create', { name: 'scale-out', prompts, width: 1024, height: 1024, webhook_url: receiver.url });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    interface Batch {
      status: string;
      completed_count: number;
      failed_count: number;
      items: { image_id: string }[];
      images: { id: string }[];
    }
    const read = async () => (await (await call(api2, ADMIN, 'GET', `/api/batch/${id}`)).json()) as Batch;

    await eventually(async () => ((await read()).completed_count >= 2 ? true : undefined), 60_000);
    worker.child.kill('SIGKILL');
    await worker.exited;
    const atKill = (await read()).completed_count;
    expect(atKill).toBeLessThan(8);

    await startWorker();
    const batch = await eventually(async () => {
      const current = await read();
      return current.status === 'completed' ? current : undefined;
    }, 90_000);
    expect(batch).toMatchObject({ completed_count: 8, failed_count: 0 });
    const imageIds = batch.images.map((image) => image.id);
    expect(new Set(imageIds).size).toBe(8);
    expect(new Set(imageIds)).toEqual(new Set(batch.items.map((item) => item.image_id)));

    // Every object in the bucket has its record, and the batch added exactly its eight.
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: s3.region, credentials: s3.credentials });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'generated/' }));
    client.destroy();
    const keys = (listed.Contents ?? []).map((object) => object.Key);
    for (const imageId of imageIds) expect(keys.filter((key) => key === `generated/${imageId}.png`)).toHaveLength(1);
    const total = ((await (await call(api1, ADMIN, 'GET', '/api/images?limit=100')).json()) as { pagination: { total: number } }).pagination.total;
    expect(keys).toHaveLength(total);

    const hooks = await receiver.waitFor(1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const deliveries = new Set(receiver.received.map((hook) => hook.headers['webhook-id']));
    console.log(
      `scale-out e2e: batch of 8, worker killed at ${atKill} completed; ${batch.completed_count} images, ${new Set(imageIds).size} distinct, ${keys.length} objects, ${deliveries.size} webhook (${receiver.received.length} deliveries)`,
    );
    expect(deliveries.size).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(hooks[0]?.body ?? '{}')).toMatchObject({ event: 'batch.completed', batch_id: id, completed_count: 8, failed_count: 0 });
  }, 180_000);
});
