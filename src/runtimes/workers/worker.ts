import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ExecutionContext } from 'hono';
import packageJson from '../../../package.json' with { type: 'json' };
import type { MessageBatch } from '../../adapters/queue/queue-messages.js';
import { createApp } from '../../app.js';
import { registerJobHandlers } from '../../domain/batches/batch-workers.js';
import { sweepBatches } from '../../domain/batches/batch-sweeper.js';
import { ConfigError } from '../../config.js';
import { ApiError } from '../../domain/errors.js';
import { startup } from '../../domain/startup.js';
import type { AppEnv } from '../../http/app-env.js';
import type { WorkerBindings } from './bindings.js';
import { buildWorkerDeps, SchemaMissing, workerConfig, type WorkerRuntime } from './deps.js';

export { RateLimitCounter } from '../../adapters/rate-limit/durable-object-rate-limiter.js';

interface Ready extends WorkerRuntime {
  app: OpenAPIHono<AppEnv>;
}


/** Built once per isolate, on its first event; a failed build is forgotten, so the next event tries again. */
let ready: Promise<Ready> | undefined;

function runtimeOf(env: WorkerBindings, origin: string | undefined): Promise<Ready> {
  ready ??= build(env, origin).catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

async function build(env: WorkerBindings, origin: string | undefined): Promise<Ready> {
  const config = workerConfig(env, origin);
  const runtime = await buildWorkerDeps(env, config);
  registerJobHandlers(runtime.deps);
  // The start-up steps of any runtime, per isolate: every one is idempotent.
  await startup(runtime.deps, { adminKey: config.authMode === 'api_key' ? { secret: config.adminApiKey } : undefined, continuing: 'serving' });
  const app = createApp({
    deps: runtime.deps,
    config,
    version: packageJson.version,
    // R2 objects are served by this Worker at /files (r2_url points there unless R2_PUBLIC_URL names the bucket's domain).
    serveFiles: true,
    // Cloudflare sets it on every request; a client cannot forge it.
    clientAddress: (c) => c.req.header('cf-connecting-ip') ?? 'unknown',
  });
  return { ...runtime, app };
}

const unavailable = (message: string): Response =>
  Response.json(new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { message }).toBody(), { status: 503, headers: { 'Retry-After': '5' } });

export default {
  async fetch(request: Request, env: WorkerBindings, ctx: ExecutionContext): Promise<Response> {
    // The API reference page needs swagger-ui's files from node_modules (Node serves them); here, its document.
    if (new URL(request.url).pathname === '/docs') return Response.redirect(new URL('/openapi.json', request.url).toString(), 302);
    let runtime: Ready;
    try {
      runtime = await runtimeOf(env, new URL(request.url).origin);
    } catch (error) {
      // What the operator must fix, said to whoever calls: a missing schema, a bad setting (named, never its value).
      if (error instanceof SchemaMissing || error instanceof ConfigError) return unavailable(error.message);
      throw error;
    }
    return runtime.app.fetch(request, env, ctx);
  },

  /** Batches of the JOBS Queue: batch prompts and webhook deliveries, run by the handlers registered at build. */
  async queue(batch: MessageBatch, env: WorkerBindings): Promise<void> {
    const runtime = await runtimeOf(env, undefined);
    await runtime.queue.consume(batch);
  },

  /**
   * The Cron Trigger: what Node's periodic sweeps do. Work an outage left without a job is queued again, jobs whose
   * message was lost are sent again, objects stored without a record are removed, and charges left reserved by a
   * call that never came back are settled.
   */
  async scheduled(_event: unknown, env: WorkerBindings): Promise<void> {
    const runtime = await runtimeOf(env, undefined).catch((error: unknown) => {
      console.error('scheduled sweep: the service could not start', error);
      throw error;
    });
    const { deps, config } = runtime;
    // Each step on its own: one failing (the database away for a moment) leaves the others to run, and says so.
    const steps: [string, () => Promise<unknown>][] = [
      ['queue again the batch work left without a job', () => sweepBatches(deps)],
      ['send again the messages of jobs left without one', () => runtime.queue.redeliver()],
      ['clean up after a stopped consumer', () => startup(deps, { recover: { orphanGraceSeconds: config.storage.orphanGraceSeconds, callDeadlineMs: config.providers.timeoutMs }, continuing: 'working' })],
    ];
    const failed: string[] = [];
    for (const [what, step] of steps) {
      await step().catch((error: unknown) => {
        failed.push(what);
        deps.logger.error({ err: error }, `scheduled sweep: could not ${what}; the next Cron Trigger tries again`);
      });
    }
    if (failed.length > 0) throw new Error(`scheduled sweep: could not ${failed.join(', ')}`);
  },
};
