import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import packageJson from '../../../package.json' with { type: 'json' };
import { createApp, type AppConfig } from '../../app.js';
import { sweepBatches } from '../../domain/batches/batch-sweeper.js';
import { registerJobHandlers } from '../../domain/batches/batch-workers.js';
import { startup } from '../../domain/startup.js';
import type { ClaimLease } from '../../http/middleware/idempotency.js';
import type { AppEnv } from '../../http/app-env.js';
import type { WorkerBindings } from './bindings.js';
import { buildWorkerDeps, workerConfig, type WorkerInjections, type WorkerRuntime } from './deps.js';

export interface WorkerService extends WorkerRuntime {
  app: OpenAPIHono<AppEnv>;
}

export interface WorkerServiceOptions {
  /** The request's origin, PUBLIC_BASE_URL's default; none for an isolate started by a Queue batch or the Cron. */
  origin?: string;
  /** Clock, ids and batch settings in place of the real ones (a test worker drives time). */
  inject?: WorkerInjections;
  /** Settings of the app over those the bindings give (a test worker's allow-list or metrics token). */
  app?: Partial<AppConfig>;
  /** The peer address of a request; Cloudflare's CF-Connecting-IP by default. */
  clientAddress?: (c: Context) => string;
  idempotencyLease?: ClaimLease;
}

/** The service of one isolate: adapters from the bindings, job handlers registered, start-up steps run, the app. */
export async function createWorkerService(env: WorkerBindings, options: WorkerServiceOptions = {}): Promise<WorkerService> {
  const config = workerConfig(env, options.origin);
  const runtime = await buildWorkerDeps(env, config, options.inject);
  registerJobHandlers(runtime.deps);
  // The start-up steps of any runtime, per isolate: every one is idempotent. No CLI runs on Workers: more keys come over HTTP.
  await startup(runtime.deps, {
    adminKey: config.authMode === 'api_key' ? { secret: config.adminApiKey, moreKeys: 'http' } : undefined,
    continuing: 'serving',
  });
  const app = createApp({
    deps: runtime.deps,
    config: { ...config, ...options.app },
    version: packageJson.version,
    // R2 objects are served by this Worker at /files (r2_url points there unless R2_PUBLIC_URL names the bucket's domain).
    serveFiles: true,
    // Cloudflare sets it on every request; a client cannot forge it.
    clientAddress: options.clientAddress ?? ((c) => c.req.header('cf-connecting-ip') ?? 'unknown'),
    idempotencyLease: options.idempotencyLease,
  });
  return { ...runtime, app };
}

/**
 * What the Cron Trigger runs, as Node's periodic sweeps do: work an outage left without a job is queued again, jobs
 * whose message was lost are sent again, objects stored without a record are removed, and charges left reserved by
 * a call that never came back are settled.
 */
export async function runScheduledSweep(service: WorkerRuntime): Promise<void> {
  const { deps, config, queue } = service;
  // Each step on its own: one failing (the database away for a moment) leaves the others to run, and says so.
  const steps: [string, () => Promise<unknown>][] = [
    ['queue again the batch work left without a job', () => sweepBatches(deps)],
    ['send again the messages of jobs left without one', () => queue.redeliver()],
    [
      'clean up after a stopped consumer',
      () =>
        startup(deps, {
          recover: { orphanGraceSeconds: config.storage.orphanGraceSeconds, callDeadlineMs: config.providers.timeoutMs },
          continuing: 'working',
        }),
    ],
  ];
  const failed: string[] = [];
  for (const [what, step] of steps) {
    await step().catch((error: unknown) => {
      failed.push(what);
      deps.logger.error({ err: error }, `scheduled sweep: could not ${what}; the next Cron Trigger tries again`);
    });
  }
  if (failed.length > 0) throw new Error(`scheduled sweep: could not ${failed.join(', ')}`);
}
