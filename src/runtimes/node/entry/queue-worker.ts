import { StartupError } from '../../../adapters/process/startup-error.js';
import type { Config } from '../../../config/config.js';
import { describeDatabase } from '../database.js';
import { buildDeps } from '../deps.js';
import { createLogger } from '../logger.js';
import { checkDependencies } from './startup-checks.js';
import { startBatchWorkers, type BatchWorkerOptions, type BatchWorkers } from '../../../domain/batches/batch-workers.js';
import { startup, type StartupOptions } from '../../../domain/startup.js';
import { warmHttpClient } from '../../../adapters/process/warm-http-client.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';

export interface RunningWorker {
  /** Stops taking jobs; running ones finish (or, past the shutdown deadline, are handed back by their lease or lock). */
  close(): Promise<void>;
}

/** Workers in another process share the queue and the database, so they need a database server. */
export function requireSharedDatabase(config: Pick<Config, 'database'>, what: string): void {
  if (config.database.kind === 'sqlite') {
    throw new StartupError(
      `${what} shares jobs with other processes, so it needs DATABASE_URL=postgres://...; with the embedded SQLite database, \`imagegate serve\` runs the workers itself`,
    );
  }
}

/** What a worker process sweeps besides the batches: objects stored without a record, every ORPHAN_SWEEP_SECONDS. */
export function batchWorkerOptions(config: Pick<Config, 'orphanSweepSeconds' | 'storage'>): BatchWorkerOptions {
  if (config.orphanSweepSeconds === 0) return {};
  return { reconcile: { intervalMs: config.orphanSweepSeconds * 1000, graceSeconds: config.storage.orphanGraceSeconds } };
}

/** What a process that runs jobs cleans up at start, after a stopped one: see `startup`. */
export function recoverOptions(config: Pick<Config, 'storage' | 'providers'>): NonNullable<StartupOptions['recover']> {
  return { orphanGraceSeconds: config.storage.orphanGraceSeconds, callDeadlineMs: config.providers.timeoutMs };
}

/** `imagegate worker`: batch prompts and webhook deliveries; no API port, only /metrics on METRICS_PORT when METRICS_TOKEN is set. */
export async function startQueueWorker(config: Config): Promise<RunningWorker> {
  requireSharedDatabase(config, 'imagegate worker');
  const logger = createLogger(config, { buffered: true });
  const runtime = await buildDeps(config, { logger });
  let workers: BatchWorkers;
  let metricsServer: MetricsServer | undefined;
  try {
    await checkDependencies(runtime.deps.readiness, config);
    // Only with a token: metrics are never served to whoever can reach the port.
    const { token, port } = config.metrics;
    if (token !== undefined) metricsServer = await startMetricsServer({ metrics: runtime.deps.metrics, token, host: config.host, port, logger });
    await Promise.all([startup(runtime.deps, { recover: recoverOptions(config), continuing: 'working' }), warmHttpClient(logger)]);
    workers = await startBatchWorkers(runtime.deps, batchWorkerOptions(config));
  } catch (error) {
    await metricsServer?.close();
    await runtime.close().catch(() => undefined);
    throw error;
  }
  logger.info(
    { database: describeDatabase(config), queue: config.redis === undefined ? 'database' : 'redis', concurrency: config.worker.concurrency },
    'imagegate worker started',
  );
  return {
    async close() {
      await metricsServer?.close();
      await workers.stop();
      await runtime.close();
      logger.info('imagegate worker stopped');
    },
  };
}
