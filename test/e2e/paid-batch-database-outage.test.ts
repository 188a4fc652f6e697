import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { deleteRedisKeys, freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { startTcpProxy, type TcpProxy } from '../../src/test-support/tcp-proxy.js';
import { eventually } from '../../src/test-support/webhook-receiver.js';
import { stabilitySuccess } from '../../src/adapters/providers/stability/stability.fake.js';
import { sampleImages } from '../../src/test-support/fake-images.js';
import { startLoopbackServer, type LoopbackServer, type ReceivedForm } from '../../src/test-support/loopback-server.js';
import { bucketKeys, callWith, readBatch } from './outage-support.js';
import { adminQuery, s3Env } from './deployment.js';
import { startCliProcess, startServerProcess, type ServerProcess } from './spawn-server.js';

/**
 * Issue 38: a paid model (Stability's Core, $0.03 an image, on its loopback fake that takes 1 to 2 s an image) runs a
 * batch of 12 while PostgreSQL, behind a TCP proxy, is refused for 8 s in its middle, so that answers the provider
 * delivered (and billed) arrive while the database is away. The batch still ends with 12 images of 12, the provider
 * was asked (and paid) exactly once per prompt, the ledger holds one `succeeded` charge per image and nothing else,
 * costing 12 x $0.03 in all, and the bucket one object per image. Seen from outside only: the HTTP API, the fake's
 * own counts and the bucket, so it holds however a batch prompt is run inside.
 */
const skip = await skipWithout('postgres', 'redis');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const BUCKET = 'imagegate';
const MODEL = 'stability/core';
const PRICE_USD = 0.03;
const PROMPTS = 12;
const OUTAGE_MS = 8_000;
const GENERATE_PATH = '/v2beta/stable-image/generate/core';

const call = callWith(ADMIN);

interface Charge {
  image_id: string | null;
  model: string;
  outcome: string;
  cost: number;
}

/** A billable call as the fake saw it: when it came, when its answer left, and the prompt it carried. */
interface PaidCall {
  receivedAt: number;
  answeredAt?: number;
  prompt?: string;
}

/**
 * Stability on loopback, answering every Core generation after 1 to 2 s (spread by the call's number, so answers
 * come apart rather than in waves), and keeping a record of each billable call.
 */
async function startSlowStability(): Promise<{ server: LoopbackServer; calls: PaidCall[]; inFlight(): number }> {
  const forms: ReceivedForm[] = [];
  const succeed = stabilitySuccess(await sampleImages(), 'png', forms);
  const calls: PaidCall[] = [];
  const server = await startLoopbackServer(async (request, response, self) => {
    if (request.method !== 'POST' || request.path !== GENERATE_PATH) return succeed(request, response, self);
    const paid: PaidCall = { receivedAt: Date.now() };
    calls.push(paid);
    await new Promise((resolve) => setTimeout(resolve, 1_000 + ((calls.length * 617) % 1_000)));
    const before = forms.length;
    await succeed(request, response, self);
    paid.answeredAt = Date.now();
    paid.prompt = forms[before]?.fields.prompt;
  });
  return { server, calls, inFlight: () => calls.filter((paid) => paid.answeredAt === undefined).length };
}

/**
 * The paid path (the answer stored and journaled before its record) is the same whatever the queue: one deployment
 * here keeps the suite's time; test/e2e/database-outage.test.ts cuts both deployments with a free model.
 * PAID_OUTAGE_DEPLOYMENTS=all runs the BullMQ one too.
 */
const ALL_DEPLOYMENTS = [
  { name: 'one serve without Redis (the database queue)', redis: false },
  { name: 'two API processes and a worker, with Redis (BullMQ)', redis: true },
];
const DEPLOYMENTS = process.env.PAID_OUTAGE_DEPLOYMENTS === 'all' ? ALL_DEPLOYMENTS : ALL_DEPLOYMENTS.slice(0, 1);

describe.skipIf(skip).each(DEPLOYMENTS)('a paid batch through a PostgreSQL outage: $name', ({ redis }) => {
  const database = `imagegate_paid_outage_${process.pid}_${randomBytes(3).toString('hex')}`;
  const prefix = freshRedisPrefix('e2e-paid-outage');
  let s3: S3TestServer;
  let fake: Awaited<ReturnType<typeof startSlowStability>>;
  let proxy: TcpProxy;
  const processes: ServerProcess[] = [];
  let api1: ServerProcess;
  let api2: ServerProcess;
  /** The process that runs the batch. */
  let worker: ServerProcess;

  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    [s3, fake] = await Promise.all([startS3Server({ buckets: [BUCKET] }), startSlowStability()]);
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const dbUrl = new URL(TEST_DATABASE_URL);
    dbUrl.hostname = '127.0.0.1';
    dbUrl.port = String(proxy.port);
    dbUrl.pathname = `/${database}`;
    const env: Record<string, string> = {
      DATABASE_URL: dbUrl.toString(),
      ...(redis ? { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix } : {}),
      ...s3Env(s3, BUCKET),
      ADMIN_API_KEY: ADMIN,
      STABILITY_API_KEY: 'sk-stab-e2e',
      STABILITY_BASE_URL: fake.server.origin,
      // Three calls at once: a cut in the middle finds some under way, whose answers then arrive during it.
      WORKER_CONCURRENCY: '3',
      BATCH_SWEEP_SECONDS: '3',
      // An orphan sweep with a grace shorter than the outage, as a long outage meets the default 15 minutes: an
      // answer stored while its record could not be written must survive it until the rerun records it.
      ORPHAN_SWEEP_SECONDS: '5',
      ORPHAN_GRACE_SECONDS: '5',
    };
    if (redis) {
      // One after the other: the first migrates the new database, and on a busy machine three cold starts at once
      // can each miss the start deadline.
      for (const start of [
        () => startServerProcess(env, ['--no-workers']),
        () => startServerProcess(env, ['--no-workers']),
        () => startCliProcess(['worker'], env, 'imagegate worker started'),
      ]) {
        processes.push(await start());
      }
      [api1, api2, worker] = processes as [ServerProcess, ServerProcess, ServerProcess];
    } else {
      worker = await startServerProcess(env);
      [api1, api2] = [worker, worker];
      processes.push(worker);
    }
  }, 90_000);

  afterAll(async () => {
    proxy?.setMode('relay');
    await Promise.all(processes.map((process_) => process_.stop('SIGKILL')));
    await proxy?.cut();
    await fake?.server.close();
    await s3?.close();
    if (redis) await deleteRedisKeys(prefix);
    await adminQuery(`drop database if exists "${database}" with (force)`);
  }, 60_000);

  it('completes 12 images of 12, each prompt paid once and charged once, with answers delivered during the cut', async () => {
    // What the worker said is what an operator would read to see where a prompt went wrong.
    onTestFailed(() => console.log(`worker log (end):\n${worker.output().slice(-12_000)}`));
    const started = Date.now();
    const prompts = Array.from({ length: PROMPTS }, (_, i) => `a paid lighthouse in a storm, view ${i}`);
    const res = await call(api1, 'POST', '/api/batch/create', { name: 'paid outage', prompts, model: MODEL, width: 1024, height: 1024 });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    // Cut in the middle: some images recorded, and calls at the provider whose answers will come during the cut.
    await eventually(async () => {
      const current = await readBatch(call, api2, id);
      return current !== undefined && current.completed_count >= 3 && fake.inFlight() >= 2 ? current : undefined;
    }, 60_000);
    proxy.setMode('refuse');
    proxy.drop();
    const cutAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    proxy.setMode('relay');
    const backAt = Date.now();
    // What the test is about: the provider delivered answers while the database was away.
    const answeredDuringCut = fake.calls.filter((paid) => paid.answeredAt !== undefined && paid.answeredAt > cutAt && paid.answeredAt < backAt).length;
    expect(answeredDuringCut).toBeGreaterThanOrEqual(2);

    const batch = await eventually(async () => {
      const current = await readBatch(call, api2, id);
      return current?.status === 'completed' ? current : undefined;
    }, 60_000).catch(async (error: unknown) => {
      console.log(`batch: ${JSON.stringify({ ...(await readBatch(call, api1, id)), images: undefined })}`);
      throw error;
    });
    const finishedAt = Date.now();
    expect(batch.items.filter((item) => item.status !== 'succeeded')).toEqual([]);
    expect(batch).toMatchObject({ completed_count: PROMPTS, failed_count: 0 });
    const imageIds = batch.items.map((item) => item.image_id);
    expect(new Set(batch.images.map((image) => image.id))).toEqual(new Set(imageIds));
    expect(new Set(imageIds).size).toBe(PROMPTS);

    // Paid once per prompt: the provider received exactly 12 generations, one for each prompt.
    expect(fake.calls).toHaveLength(PROMPTS);
    expect(fake.calls.map((paid) => paid.prompt).sort()).toEqual([...prompts].sort());

    // Charged once per image: one `succeeded` charge for each, at the model's price, and nothing else in the ledger.
    const ledger = (await (await call(api1, 'GET', '/api/analytics/charges?limit=100')).json()) as { charges: Charge[] };
    expect(ledger.charges.filter((charge) => charge.outcome !== 'succeeded')).toEqual([]);
    expect(ledger.charges.map((charge) => charge.image_id).sort()).toEqual([...imageIds].sort());
    for (const charge of ledger.charges) expect(charge).toMatchObject({ model: MODEL, cost: PRICE_USD });
    const total = ledger.charges.reduce((sum, charge) => sum + charge.cost, 0);
    expect(total).toBeCloseTo(PROMPTS * PRICE_USD, 9);

    // One object per image, and nothing else under generated/.
    const keys = await eventually(async () => {
      const listed = await bucketKeys(s3, BUCKET);
      return listed.length === PROMPTS ? listed : undefined;
    }, 30_000).catch(async (error: unknown) => {
      console.log(`bucket: ${JSON.stringify(await bucketKeys(s3, BUCKET))}`);
      throw error;
    });
    expect(keys.sort()).toEqual(imageIds.map((imageId) => `generated/${imageId}.png`).sort());

    for (const process_ of processes) expect(process_.child.exitCode).toBeNull();
    const retried = (worker.output().match(/will be retried/g) ?? []).length;
    console.log(
      `paid-batch database-outage e2e (${redis ? 'BullMQ' : 'database queue'}): ${PROMPTS} prompts of ${MODEL}, PostgreSQL cut ${OUTAGE_MS / 1000} s at ${cutAt - started} ms, ` +
        `${answeredDuringCut} answers delivered during the cut; batch completed ${finishedAt - backAt} ms after the database came back (${finishedAt - started} ms in all); ` +
        `${fake.calls.length} paid calls, ${ledger.charges.length} charges totalling $${total.toFixed(2)}, ${keys.length} objects, ${retried} retry log lines`,
    );
  }, 120_000);
});
