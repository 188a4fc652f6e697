import { randomInt } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import type { Redis } from 'ioredis';
import { createCpuPool, type CpuPool } from '../../adapters/cpu/cpu-pool.js';
import { createLocalBlobStore } from '../../adapters/blob/local-blob-store.js';
import { createS3BlobStore } from '../../adapters/blob/s3-blob-store.js';
import { traceBlobWrites } from '../../adapters/blob/traced-blob-store.js';
import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import { withKeyCache } from '../../adapters/db/cached-api-keys.js';
import { createPostgresDatabase } from '../../adapters/db/postgres.js';
import { postgresStartupError, throughDrops } from '../../adapters/db/postgres-startup.js';
import { createSqliteDatabase } from '../../adapters/db/sqlite.js';
import { acquireDataDirLock, type DataDirLock } from '../../adapters/process/data-dir-lock.js';
import { prepareDataDir } from '../../adapters/process/data-dir.js';
import { StartupError, errorCode } from '../../adapters/process/startup-error.js';
import { createNoMetrics } from '../../adapters/metrics/no-metrics.js';
import { createPrometheusMetrics } from '../../adapters/metrics/prometheus-metrics.js';
import { createBullmqQueue } from '../../adapters/queue/bullmq-queue.js';
import { createDatabaseQueue } from '../../adapters/queue/database-queue.js';
import type { JobRetryPolicy } from '../../adapters/queue/retry-policy.js';
import { createFlexibleRateLimiter } from '../../adapters/rate-limit/flexible-rate-limiter.js';
import { createRateLimitRedisClient, waitUntilReady } from '../../adapters/rate-limit/redis-client.js';
import { createRedisRateLimiter } from '../../adapters/rate-limit/redis-rate-limiter.js';
import { systemLookup } from '../../adapters/webhooks/system-lookup.js';
import { createHttpWebhookTransport } from '../../adapters/webhooks/http-webhook-transport.js';
import { ConfigError, type Config } from '../../config.js';
import type { BatchSettings, Deps } from '../../domain/context.js';
import { createModelCatalog } from '../../domain/models/catalog.js';
import { JOB_KINDS } from '../../domain/jobs.js';
import { sampleTemplates } from '../../domain/templates/sample-templates.js';
import { resolveWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import { FILES_PATH } from '../../http/routes/system/files.js';
import type { BlobStore } from '../../ports/blob-store.js';
import { systemClock, type Clock } from '../../ports/clock.js';
import { createIdGenerator, type IdGenerator } from '../../ports/ids.js';
import type { ImageProvider } from '../../ports/image-provider.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { ReadinessCheck } from '../../ports/readiness.js';
import type { WebhookTransport } from '../../ports/webhook-transport.js';
import { activeTraceFields } from '../../ports/tracer.js';
import { buildNodeProviderSet } from './providers.js';
import { withProviders } from '../../providers.js';

/**
 * `buffered` (the server and the worker): lines go to stdout by asynchronous writes, so a request never waits on the
 * pipe, and lines that pile up while one write is in flight leave in the next one. Nothing waits for a size to
 * fill (a quiet server's lines still appear at once), and pino flushes what is left when the process exits.
 * The CLI writes synchronously, so its lines keep their order with what it prints.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, options: { buffered?: boolean } = {}): Logger {
  // Every line written inside a traced request or job names its trace (traceId, spanId); none with tracing off.
  const settings = { level: config.logLevel, base: { service: 'imagegate' }, mixin: activeTraceFields };
  return options.buffered === true ? pino(settings, pino.destination({ dest: 1, sync: false })) : pino(settings);
}

/** What the test harness and the CLI replace; everything else comes from the configuration. */
export interface DepsOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  randomSeed?: () => number;
  logger?: Logger;
  /** Extra or replacement providers by id; a provider given here counts as configured. */
  providers?: Readonly<Record<string, ImageProvider>>;
  blobs?: BlobStore;
  webhooks?: WebhookTransport;
  batch?: Partial<BatchSettings>;
  /** How often the database queue looks for due jobs. */
  queuePollMs?: number;
  /** How the queue retries a job that threw (default: 6 runs, backoff from 2 s); tests shorten it. */
  jobRetry?: JobRetryPolicy;
  /**
   * A CPU pool that outlives this runtime, which then leaves it open: the test harness shares one per test
   * file, since a worker thread takes most of a second to start. By default the runtime has its own.
   */
  cpu?: CpuPool;
}

/** The dependencies of one process, and how to let go of them (connections, pools, timers). */
export interface Runtime {
  deps: Deps;
  close(): Promise<void>;
}

/** How the database is named to people (logs, the CLI): never with its password. */
export function describeDatabase(config: Pick<Config, 'database'>): string {
  const { database } = config;
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  if (url.password !== '') url.password = '***';
  return `${url.toString()}${database.schema === undefined ? '' : ` (schema ${database.schema})`}`;
}

/** The configured database, migrated (on PostgreSQL under an advisory lock, so a fleet starting together migrates once). */
export async function openDatabase(config: Pick<Config, 'database'>, logger?: Logger, onMigrated?: (applied: readonly string[]) => void): Promise<KyselyDatabase> {
  const { database } = config;
  if (database.kind === 'postgres') {
    const db = createPostgresDatabase({
      url: database.url,
      poolSize: database.poolSize,
      schema: database.schema,
      logger,
      connectTimeoutMs: database.connectTimeoutMs,
      statementTimeoutMs: database.statementTimeoutMs,
    });
    try {
      // Migrated first, then reported: `onMigrated?.(await ...)` would skip the migration itself without a listener.
      const applied = await throughDrops(() => db.migrate(), logger);
      onMigrated?.(applied);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw postgresStartupError(error, describeDatabase(config));
    }
    return db;
  }
  let db: KyselyDatabase;
  try {
    db = createSqliteDatabase(database.file);
  } catch (error) {
    const code = errorCode(error) ?? '';
    if (!/^(SQLITE_(CANTOPEN|READONLY|PERM|NOTADB)|EACCES|EPERM|ENOTDIR|EROFS)/.test(code)) throw error;
    const file = describeDatabase(config);
    throw new StartupError(`cannot open the database ${file} (${error instanceof Error ? error.message : code}); make it readable and writable by this user, or set DATA_DIR to the server's data folder`);
  }
  const applied = await db.migrate();
  onMigrated?.(applied);
  return db;
}

const blobRoot = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'blobs');

/**
 * Readies DATA_DIR for a server and claims it. The embedded mode (SQLite file, job queue inside it)
 * allows one server per DATA_DIR, so it takes a lock; a database server would allow several and skip it.
 */
export function claimDataDir(config: Pick<Config, 'dataDir'>): DataDirLock | undefined {
  prepareDataDir(config.dataDir);
  // A `blobs/` left by a run as another user (sudo) would otherwise fail every generate with a 500.
  prepareDataDir(blobRoot(config), 'the image folder');
  return acquireDataDirLock(config.dataDir);
}

/** Images on local disk (served at /files) or in an S3-compatible bucket (served by its public URL). */
function openBlobStore(config: Config, logger: Logger): BlobStore {
  const { s3 } = config.storage;
  if (config.storage.driver === 's3' && s3 !== undefined) {
    return createS3BlobStore({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle, publicBaseUrl: s3.publicUrl, logger });
  }
  return createLocalBlobStore({ root: blobRoot(config), publicBaseUrl: `${config.publicBaseUrl}${FILES_PATH}` });
}

/** Shorter than the processes' shutdown deadline (25 s), so unfinished jobs go back before a forced exit. */
const HAND_BACK_AFTER_MS = 20_000;

/** BullMQ when Redis is configured; otherwise jobs are rows in the database (shared safely on PostgreSQL). */
function openQueue(config: Config, db: KyselyDatabase, clock: Clock, logger: Logger, tuning: { pollMs?: number; retry?: JobRetryPolicy }): JobQueue {
  const { pollMs, retry } = tuning;
  if (config.redis !== undefined) return createBullmqQueue({ connection: config.redis.url, prefix: config.redis.prefix, logger, clock, pollMs, retry });
  // Jobs still running at the shutdown deadline are handed back rather than left to wait out their lease.
  return createDatabaseQueue({ db: db.kysely, dialect: db.dialect, clock, logger, pollMs, handBackAfterMs: HAND_BACK_AFTER_MS, retry });
}

/** Counters in Redis are exact across every API process; in memory they count for this process only. */
async function openRateLimiter(config: Config, clock: Clock, logger: Logger, closers: (() => Promise<void>)[]): Promise<{ limiter: RateLimiter; redis?: Redis }> {
  if (config.redis === undefined) return { limiter: createFlexibleRateLimiter({ clock }) };
  const client = createRateLimitRedisClient({ url: config.redis.url, commandTimeoutMs: config.redis.commandTimeoutMs, logger });
  closers.unshift(async () => {
    await client.quit().catch(() => client.disconnect());
  });
  // The client has no offline queue: without this wait, the first requests after start could get a 503
  // only because the connection was still being made. Redis that is down does not stop the start.
  await waitUntilReady(client);
  return { limiter: createRedisRateLimiter({ client, prefix: config.redis.prefix, clock, fallback: config.redis.rateLimitFallback }), redis: client };
}

/** Prometheus series when someone may scrape them (METRICS_TOKEN set); otherwise nothing is recorded. */
function openMetrics(config: Config, logger: Logger): Metrics {
  return config.metrics.token === undefined ? createNoMetrics() : createPrometheusMetrics({ logger });
}

/** A scrape waits this long at most for the queues' backlog, well within Prometheus' default scrape timeout (10 s). */
const QUEUE_STATS_TIMEOUT_MS = 3_000;

/** Every job queue's backlog, read at each scrape; when it cannot be read in time, the queue series are left out rather than stale. */
function reportQueues(metrics: Metrics, queue: JobQueue): void {
  metrics.onScrape(async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the job queues did not answer within ${QUEUE_STATS_TIMEOUT_MS} ms`)), QUEUE_STATS_TIMEOUT_MS);
    });
    try {
      metrics.queues(await Promise.race([queue.stats(Object.keys(JOB_KINDS)), timeout]));
    } catch (error) {
      metrics.queues([]);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  });
}

/** Outside `generated/` and `uploads/`: no image has it and the orphan sweep never looks there. */
const READINESS_PROBE_KEY = 'readiness/probe';

/** A write-and-delete round trip costs a PUT and a DELETE: probes within this many ms share one answer. */
export const STORAGE_PROBE_CACHE_MS = 5_000;

/**
 * Storage is ready when it takes a write and a delete (a bucket that answers reads but refuses writes serves no
 * generation). The answer, good or bad, is kept for STORAGE_PROBE_CACHE_MS, so frequent probes (several load
 * balancers, Kubernetes) cost one round trip, and a failure shows within that time.
 */
function storageProbe(blobs: BlobStore, clock: Clock): () => Promise<void> {
  let last: { at: number; result: Promise<void> } | undefined;
  const writeAndDelete = async (): Promise<void> => {
    await blobs.put(READINESS_PROBE_KEY, new TextEncoder().encode('ok'), 'text/plain');
    await blobs.delete(READINESS_PROBE_KEY);
  };
  return () => {
    const now = clock.now().getTime();
    if (last === undefined || now - last.at >= STORAGE_PROBE_CACHE_MS) {
      const result = writeAndDelete();
      // The cached promise must not be an unhandled rejection while nobody awaits it.
      result.catch(() => undefined);
      last = { at: now, result };
    }
    return last.result;
  };
}

/** What `/health/ready` asks, each a cheap round trip. */
function readinessChecks(db: KyselyDatabase, blobs: BlobStore, redis: Redis | undefined, clock: Clock): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    { name: 'database', check: () => db.ping() },
    { name: 'storage', check: storageProbe(blobs, clock) },
  ];
  if (redis !== undefined) checks.push({ name: 'redis', check: async () => void (await redis.ping()) });
  return checks;
}

/**
 * The one place adapters are chosen from the configuration; the server, the worker, the CLI and the test
 * harness all build their dependencies here.
 */
export async function buildDeps(config: Config, overrides: DepsOverrides = {}): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const opened = await openDatabase(config, logger);
  const db: KyselyDatabase = { ...opened, apiKeys: withKeyCache(opened.apiKeys, clock) };
  // Threads start with the first render or decode; closed after the queue, whose jobs may still be using them.
  const cpu: CpuPool = overrides.cpu ?? createCpuPool({ threads: config.worker.cpuThreads });
  const closers: (() => Promise<void>)[] = [() => db.close()];
  if (overrides.cpu === undefined) closers.unshift(() => cpu.close());
  const metrics = openMetrics(config, logger);
  try {
    await throughDrops(() => db.templates.seed(sampleTemplates), logger);
    const { providers, models, statusOf } = withProviders(buildNodeProviderSet(config, { cpu, metrics }), overrides.providers);
    const catalog = createModelCatalog(models, statusOf, config.defaultModel);
    if (catalog.find(config.defaultModel) === undefined) {
      throw new ConfigError(`Invalid configuration:\n  DEFAULT_MODEL: unknown model ${JSON.stringify(config.defaultModel)}; \`imagegate models --all\` lists the model ids`);
    }
    const queue = openQueue(config, db, clock, logger, { pollMs: overrides.queuePollMs, retry: overrides.jobRetry });
    closers.unshift(() => queue.close());
    reportQueues(metrics, queue);

    const blobs = traceBlobWrites(overrides.blobs ?? openBlobStore(config, logger));
    const rateLimit = await openRateLimiter(config, clock, logger, closers);
    const deps: Deps = {
      db,
      blobs,
      providers,
      catalog,
      codec: cpu,
      clock,
      rateLimiter: rateLimit.limiter,
      queue,
      webhooks: overrides.webhooks ?? createHttpWebhookTransport({ lookup: systemLookup, allowPrivateNetworks: config.webhooks.allowPrivateNetworks }),
      batchSettings: {
        maxPrompts: config.batch.maxPrompts,
        concurrency: config.worker.concurrency,
        retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
        webhookSecret: await throughDrops(() => resolveWebhookSecret(db, config.webhooks.secret), logger),
        sweepIntervalMs: config.batch.sweepSeconds * 1000,
        ...overrides.batch,
      },
      ids: overrides.ids ?? createIdGenerator(),
      logger,
      randomSeed: overrides.randomSeed ?? (() => randomInt(0, 2 ** 32)),
      readiness: readinessChecks(db, blobs, rateLimit.redis, clock),
      metrics,
    };
    return { deps, close: () => closeAll(closers) };
  } catch (error) {
    await closeAll(closers);
    throw error;
  }
}

/** In order (queue, then CPU pool, then database), each even if an earlier one failed. */
async function closeAll(closers: readonly (() => Promise<void>)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const close of closers) await close().catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw failures[0];
}
