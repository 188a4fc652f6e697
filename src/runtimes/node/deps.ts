import { randomInt } from 'node:crypto';
import { createCpuPool, type CpuPool } from '../../adapters/cpu/cpu-pool.js';
import { traceBlobWrites } from '../../adapters/blob/traced-blob-store.js';
import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import { withKeyCache } from '../../adapters/db/cached-api-keys.js';
import { throughDrops } from '../../adapters/db/postgres-startup.js';
import type { JobRetryPolicy } from '../../adapters/queue/retry-policy.js';
import { systemLookup } from '../../adapters/webhooks/system-lookup.js';
import { createHttpWebhookTransport } from '../../adapters/webhooks/http-webhook-transport.js';
import { ConfigError, type Config } from '../../config/config.js';
import type { BatchSettings, Deps } from '../../domain/context.js';
import { createUploadGates } from '../../domain/inputs/fair-gate.js';
import { createModelCatalog } from '../../domain/models/catalog.js';
import { sampleTemplates } from '../../domain/templates/sample-templates.js';
import { resolveWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import type { BlobStore } from '../../ports/blob-store.js';
import { systemClock, type Clock } from '../../ports/clock.js';
import { createIdGenerator, type IdGenerator } from '../../ports/ids.js';
import type { ImageProvider } from '../../ports/image-provider.js';
import type { Logger } from '../../ports/logger.js';
import type { WebhookTransport } from '../../ports/webhook-transport.js';
import { withProviders } from '../../providers.js';
import { openDatabase } from './database.js';
import { openGenerationEvents } from './events.js';
import { createLogger } from './logger.js';
import { openMetrics, reportQueues } from './metrics.js';
import { buildNodeProviderSet } from './providers.js';
import { openQueue } from './queue.js';
import { openRateLimiter } from './rate-limit.js';
import { readinessChecks } from './readiness.js';
import { openBlobStore } from './storage.js';

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

/**
 * The Node composition root: the server, the worker, the CLI and the test harness all build their dependencies here.
 * Each adapter is chosen from the configuration by the module of its concern beside this one (database.ts,
 * storage.ts, queue.ts, rate-limit.ts, events.ts, metrics.ts, readiness.ts, logger.ts), and assembled here.
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
      throw new ConfigError(
        `Invalid configuration:\n  DEFAULT_MODEL: unknown model ${JSON.stringify(config.defaultModel)}; \`imagegate models --all\` lists the model ids`,
      );
    }
    const queue = openQueue(config, db, clock, logger, { pollMs: overrides.queuePollMs, retry: overrides.jobRetry });
    closers.unshift(() => queue.close());
    reportQueues(metrics, queue);

    const blobs = traceBlobWrites(overrides.blobs ?? openBlobStore(config, logger));
    const rateLimit = await openRateLimiter(config, clock, logger, closers);
    const events = openGenerationEvents(config, rateLimit.redis, logger);
    closers.unshift(() => events.close());
    const deps: Deps = {
      db,
      blobs,
      providers,
      catalog,
      codec: cpu,
      clock,
      rateLimiter: rateLimit.limiter,
      queue,
      events,
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
      uploadGates: createUploadGates(config.uploads),
      uploadMetadata: config.uploadMetadata,
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
