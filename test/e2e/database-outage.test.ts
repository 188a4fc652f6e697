import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { startTcpProxy, type TcpProxy } from '../../src/test-support/tcp-proxy.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { bucketKeys, callWith, readBatch } from './outage-support.js';
import { adminQuery, s3Env } from './deployment.js';
import { startCliProcess, startServerProcess, type ServerProcess } from './spawn-server.js';

/**
 * Issue 23: PostgreSQL behind a TCP proxy that refuses connections for ten seconds in the middle of a batch,
 * in two deployments: two API processes and a worker with Redis (BullMQ), and one `serve` without Redis (the
 * database queue, whose jobs are in the database that went away). With Redis, Redis too is cut for five seconds
 * mid-batch, behind its own proxy. Every process keeps running, generates during the database cut answer 503 (not
 * 500), no request hangs over 5 s during the Redis cut, and the batch still ends with every image, one object
 * per image, and exactly one webhook.
 */
const skip = await skipWithout('postgres', 'redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const BUCKET = 'imagegate';
const PROMPTS = 16;
const OUTAGE_MS = 10_000;
const REDIS_OUTAGE_MS = 5_000;

const call = callWith(ADMIN);

const DEPLOYMENTS = [
  { name: 'two API processes and a worker, with Redis (BullMQ)', redis: true },
  { name: 'one serve without Redis (the database queue)', redis: false },
];

describe.skipIf(skip).each(DEPLOYMENTS)('a PostgreSQL outage in the middle of a batch: $name', ({ redis }) => {
  const database = `imagegate_outage_${process.pid}_${randomBytes(3).toString('hex')}`;
  const prefix = freshRedisPrefix('e2e-outage');
  let s3: S3TestServer;
  let receiver: WebhookReceiver;
  let proxy: TcpProxy;
  let redisProxy: TcpProxy | undefined;
  const processes: ServerProcess[] = [];
  let api1: ServerProcess;
  let api2: ServerProcess;
  /** The process that runs the batch. */
  let worker: ServerProcess;

  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server({ buckets: [BUCKET] });
    receiver = await startWebhookReceiver();
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const dbUrl = new URL(TEST_DATABASE_URL);
    dbUrl.hostname = '127.0.0.1';
    dbUrl.port = String(proxy.port);
    dbUrl.pathname = `/${database}`;
    const redisTarget = new URL(TEST_REDIS_URL);
    if (redis) redisProxy = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
    const env: Record<string, string> = {
      DATABASE_URL: dbUrl.toString(),
      ...(redisProxy === undefined ? {} : { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, REDIS_PREFIX: prefix }),
      ...s3Env(s3, BUCKET),
      ADMIN_API_KEY: ADMIN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '2',
      // Short sweeps, so the test sees them; the grace still spares an object whose record is on its way.
      BATCH_SWEEP_SECONDS: '3',
      ORPHAN_SWEEP_SECONDS: '5',
      ORPHAN_GRACE_SECONDS: '5',
    };
    if (redis) {
      [api1, api2] = await Promise.all([startServerProcess(env, ['--no-workers']), startServerProcess(env, ['--no-workers'])]);
      worker = await startCliProcess(['worker'], env, 'imagegate worker started');
      processes.push(api1, api2, worker);
    } else {
      worker = await startServerProcess(env);
      [api1, api2] = [worker, worker];
      processes.push(worker);
    }
  }, 90_000);

  afterAll(async () => {
    proxy?.setMode('relay');
    redisProxy?.setMode('relay');
    await Promise.all(processes.map((process_) => process_.stop('SIGKILL')));
    await proxy?.cut();
    await redisProxy?.cut();
    await receiver?.close();
    await s3?.close();
    if (redis) await deleteRedisKeys(prefix);
    await adminQuery(`drop database if exists "${database}" with (force)`);
  }, 60_000);

  it('completes the batch with every image, no orphan object and exactly one webhook, without restarting anything', async () => {
    const prompts = Array.from({ length: PROMPTS }, (_, i) => `a lighthouse in a storm, view ${i}`);
    const res = await call(api1, 'POST', '/api/batch/create', { name: 'outage', prompts, width: 1024, height: 1024, webhook_url: receiver.url });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const beforeCut = await eventually(async () => {
      const current = await readBatch(call, api2, id);
      return current !== undefined && current.completed_count >= 2 ? current : undefined;
    }, 60_000);
    if (redisProxy !== undefined) {
      // Redis refused for five seconds: every request answers within 5 s (503 while limits cannot be checked).
      redisProxy.setMode('refuse');
      redisProxy.drop();
      const redisCutAt = Date.now();
      while (Date.now() - redisCutAt < REDIS_OUTAGE_MS) {
        const started = Date.now();
        const answer = await call(api1, 'GET', '/api/images?limit=1');
        await answer.body?.cancel();
        expect(Date.now() - started).toBeLessThan(5_000);
        expect([200, 503]).toContain(answer.status);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      redisProxy.setMode('relay');
    }
    // Refused, as a PostgreSQL that went down: open connections drop, new ones are turned away.
    proxy.setMode('refuse');
    proxy.drop();
    const cutAt = Date.now();
    expect(beforeCut.completed_count).toBeLessThan(PROMPTS);
    // Generates during the cut are told to come back later (503 with Retry-After), never a 500.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const during = await Promise.all(
      [api1, api2, api1, api2].map(async (server) => {
        const answer = await call(server, 'POST', '/api/generate', { prompt: 'a harbour at dawn', width: 128, height: 128 });
        await answer.body?.cancel();
        return { status: answer.status, retryAfter: answer.headers.get('Retry-After') };
      }),
    );
    for (const answer of during) expect(answer).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - cutAt)));
    proxy.setMode('relay');
    const afterOutage = await eventually(async () => readBatch(call, api1, id), 30_000);
    const backAfterMs = Date.now() - cutAt;

    const batch = await eventually(async () => {
      const current = await readBatch(call, api2, id);
      return current?.status === 'completed' ? current : undefined;
    }, 120_000).catch(async (error: unknown) => {
      // What the worker said is what an operator would read to see why the batch did not finish.
      const state = await readBatch(call, api1, id);
      console.log(
        `batch: ${JSON.stringify({ ...state, images: undefined, items: state?.items.map((item) => item.status) })}\nworker log (end):\n${worker.output().slice(-8000)}`,
      );
      throw error;
    });
    const finishedAfterMs = Date.now() - cutAt;
    expect(batch.items.filter((item) => item.status !== 'succeeded')).toEqual([]);
    expect(batch).toMatchObject({ completed_count: PROMPTS, failed_count: 0 });
    const imageIds = batch.images.map((image) => image.id);
    expect(new Set(imageIds)).toEqual(new Set(batch.items.map((item) => item.image_id)));

    // One object per image, and eventually nothing else: an object whose record failed is rewritten or swept.
    const keys = await eventually(async () => {
      const listed = await bucketKeys(s3, BUCKET);
      const total = ((await (await call(api1, 'GET', '/api/images?limit=100')).json()) as { pagination: { total: number } }).pagination.total;
      return listed.length === total ? listed : undefined;
    }, 30_000);
    for (const imageId of imageIds) expect(keys.filter((key) => key === `generated/${imageId}.png`)).toHaveLength(1);

    const hooks = await receiver.waitFor(1, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(hooks[0]?.body ?? '{}')).toMatchObject({ event: 'batch.completed', batch_id: id, completed_count: PROMPTS, failed_count: 0 });

    // Nothing was restarted: every process is the one started before the outage, and answers.
    for (const process_ of processes) expect(process_.child.exitCode).toBeNull();
    for (const server of [api1, api2]) expect((await call(server, 'GET', `/api/batch/${id}`)).status).toBe(200);
    const retried = (worker.output().match(/will be retried/g) ?? []).length;
    console.log(
      `database-outage e2e (${redis ? 'BullMQ' : 'database queue'}): batch of ${PROMPTS}, PostgreSQL cut for ${OUTAGE_MS / 1000} s at ${beforeCut.completed_count} done (${afterOutage.completed_count} when it came back); ` +
        `API answered again ${backAfterMs} ms after the cut, batch completed ${finishedAfterMs} ms after it; ${retried} retry log lines; ${keys.length} objects, ${receiver.received.length} webhook`,
    );
  }, 300_000);
});
