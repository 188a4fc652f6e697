import type { ExecutionContext } from 'hono';
import type { MessageBatch } from '../../../../src/adapters/queue/queue-messages.js';
import type { RateLimitCounters } from '../../../../src/adapters/rate-limit/durable-object-rate-limiter.js';
import { createR2BlobStore } from '../../../../src/adapters/blob/r2-blob-store.js';
import { createD1Database } from '../../../../src/adapters/db/d1.js';
import type { BlobStore } from '../../../../src/ports/blob-store.js';
import { createIdGenerator } from '../../../../src/ports/ids.js';
import type { WorkerBindings } from '../../../../src/runtimes/workers/bindings.js';
import { createWorkerService, runScheduledSweep, type WorkerService } from '../../../../src/runtimes/workers/service.js';
import { unavailableResponse } from '../../../../src/runtimes/workers/worker.js';
import { emptyTables } from '../../../../src/test-support/empty-tables.js';
import { HARNESS_CLOCK_HEADER, TEST_CLIENT_ADDRESS_HEADER, type HarnessReset } from '../../../../src/test-support/harness-protocol.js';
import { bridgedProvider } from './bridged-provider.js';

export { RateLimitCounter } from '../../../../src/adapters/rate-limit/durable-object-rate-limiter.js';

/**
 * The test entry of the wrangler-dev project's harness: the production service (createWorkerService, on the same
 * D1, R2, Queue and Durable Object bindings) behind two test routes. `POST /__harness/reset` waits for the Queue
 * work under way, empties D1 and R2, and builds a fresh service with the test's settings; `GET /__harness/blobs`
 * lists R2's keys, `GET /__harness/blobs/<key>` answers an object, and `POST /__harness/drain` waits for the jobs. Every request may carry the harness clock's time, which the service's clock then reads.
 */
let current: WorkerService | undefined;
/** Rate-limit counters are Durable Objects, which nothing empties: each reset counts under fresh names. */
let generation = 0;
let nowMs = Date.now();
/** Which of the service's queues this test runs the jobs of. */
let runJobs: (queue: string) => boolean = () => true;
const GENERATION_QUEUES: ReadonlySet<string> = new Set(['generation', 'thumbnails']);
const clock = { now: () => new Date(nowMs) };
const consuming = new Set<Promise<void>>();

const countersOf = (counters: RateLimitCounters, prefix: string): RateLimitCounters => ({
  idFromName: (name) => counters.idFromName(`${prefix}:${name}`),
  get: (id) => counters.get(id),
});

async function reset(request: Request, env: WorkerBindings): Promise<Response> {
  const settings = (await request.json()) as HarnessReset;
  nowMs = settings.clock;
  // A job of the last test still running would write into the next one's storage.
  await Promise.race([Promise.allSettled([...consuming]), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  current = undefined;
  generation += 1;
  // A single generation is a job like any other: without it, POST /api/generate would wait for ever.
  runJobs = settings.workers ? () => true : (queue) => settings.generationJobs && GENERATION_QUEUES.has(queue);
  const providers = Object.fromEntries((settings.providers?.ids ?? []).map((id) => [id, bridgedProvider(id, settings.providers?.url ?? '')]));
  let seed = 1;
  try {
    await emptyTables(createD1Database(env.DB).kysely);
    const bucket = createR2BlobStore(env.BLOBS, { publicBaseUrl: '' });
    for (const key of await blobKeys(bucket)) await bucket.delete(key);
    // The start-up steps run again on the empty tables: the admin key, the sample templates, the webhook secret.
    current = await createWorkerService(
      { ...env, RATE_LIMITS: countersOf(env.RATE_LIMITS, `h${generation}`) },
      {
        origin: new URL(request.url).origin,
        inject: { clock, ids: createIdGenerator(() => clock.now().getTime()), randomSeed: () => seed++, batch: settings.batch, providers },
        app: settings.app,
        clientAddress: (c) => c.req.header(TEST_CLIENT_ADDRESS_HEADER) ?? '127.0.0.1',
        idempotencyLease: settings.idempotencyLease,
      },
    );
  } catch (error) {
    return unavailableResponse(error) ?? Response.json({ error: String(error) }, { status: 500 });
  }
  return new Response(null, { status: 204 });
}

/** Every key in the store, sorted, through the BlobStore port (as the Node harness lists them). */
async function blobKeys(blobs: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of blobs.list('')) keys.push(...page.map((object) => object.key));
  return keys.sort();
}

/** Resolves once no job is running or due to run (the Node harness's `deps.queue.drain()`), within 60 s. */
async function drain(service: WorkerService): Promise<Response> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await Promise.allSettled([...consuming]);
    const now = clock.now().toISOString();
    const open = await service.db.kysely
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('status', '=', 'running'), eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)])]))
      .executeTakeFirstOrThrow();
    if (Number(open.n) === 0 && consuming.size === 0) return new Response(null, { status: 204 });
    if (Date.now() > deadline) return Response.json({ error: `${open.n} jobs still open after 60 s` }, { status: 504 });
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** An object's bytes and type as stored, for tests to look at (404 when there is none). */
async function blobAt(blobs: BlobStore, key: string): Promise<Response> {
  const object = await blobs.get(key);
  if (object === undefined) return new Response(null, { status: 404 });
  return new Response(new Uint8Array(object.bytes), { headers: { 'Content-Type': object.contentType } });
}

export default {
  async fetch(request: Request, env: WorkerBindings, ctx: ExecutionContext): Promise<Response> {
    const at = Number(request.headers.get(HARNESS_CLOCK_HEADER) ?? Number.NaN);
    if (Number.isFinite(at) && at !== nowMs) {
      const forward = at > nowMs;
      nowMs = at;
      // The test moved time on: what became due gets its message now, as the Cron Trigger sends it once real time has passed.
      if (forward) await current?.queue.redeliver();
    }
    const { pathname } = new URL(request.url);
    if (pathname === '/__harness/reset' && request.method === 'POST') return reset(request, env);
    if (current === undefined) return Response.json({ error: 'POST /__harness/reset first' }, { status: 503 });
    if (pathname === '/__harness/blobs') return Response.json(await blobKeys(current.deps.blobs));
    if (pathname.startsWith('/__harness/blobs/')) return blobAt(current.deps.blobs, decodeURIComponent(pathname.slice('/__harness/blobs/'.length)));
    if (pathname === '/__harness/drain') return drain(current);
    return current.app.fetch(request, env, ctx);
  },

  async queue(batch: MessageBatch): Promise<void> {
    // Messages of a test already over: their jobs went with its tables.
    // Without workers, jobs stay queued: their rows are kept, their messages dropped.
    if (current === undefined) return batch.messages.forEach((message) => message.ack());
    const unrun = batch.messages.filter((message) => !runJobs((message.body as { queue?: string }).queue ?? ''));
    for (const message of unrun) message.ack();
    const run = current.queue.consume({ ...batch, messages: batch.messages.filter((message) => !unrun.includes(message)) });
    consuming.add(run);
    try {
      await run;
    } finally {
      consuming.delete(run);
    }
  },

  async scheduled(): Promise<void> {
    if (current !== undefined) await runScheduledSweep(current);
  },
};
