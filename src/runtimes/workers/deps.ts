import { createDurableObjectGenerationEvents } from '../../adapters/events/durable-object-generation-events.js';
import { createMemoryGenerationEvents } from '../../adapters/events/memory-generation-events.js';
import { sql } from 'kysely';
import { createUploadGates } from '../../domain/inputs/fair-gate.js';
import { createR2BlobStore } from '../../adapters/blob/r2-blob-store.js';
import { createInlineImageWork } from '../../adapters/codec/inline-image-work.js';
import { createD1Database } from '../../adapters/db/d1.js';
import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import { createNoMetrics } from '../../adapters/metrics/no-metrics.js';
import { workersAiBindingSpec } from '../../adapters/providers/workers-ai/workers-ai-binding-spec.js';
import { createCloudflareQueue, type CloudflareJobQueue } from '../../adapters/queue/cloudflare-queue.js';
import { createDurableObjectRateLimiter } from '../../adapters/rate-limit/durable-object-rate-limiter.js';
import { createDohLookup } from '../../adapters/webhooks/doh-lookup.js';
import { createFetchWebhookTransport } from '../../adapters/webhooks/fetch-webhook-transport.js';
import { ConfigError, parseConfig, type Config } from '../../config/config.js';
import type { ConfigPaths } from '../../config/paths.js';
import type { BatchSettings, Deps } from '../../domain/context.js';
import { createModelCatalog } from '../../domain/models/catalog.js';
import { sampleTemplates } from '../../domain/templates/sample-templates.js';
import { resolveWebhookSecret } from '../../domain/webhooks/webhook-secret.js';
import { FILES_PATH } from '../../http/routes/system/files.js';
import { systemClock, type Clock } from '../../ports/clock.js';
import { createIdGenerator, type IdGenerator } from '../../ports/ids.js';
import type { ImageProvider } from '../../ports/image-provider.js';
import { buildProviderSet, PROVIDER_SPECS, withProviders } from '../../providers.js';
import { settingsOf, type WorkerBindings } from './bindings.js';
import { createConsoleLogger } from './console-logger.js';

/**
 * How long a consumer's claim on a job holds: longer than the job can run, so no second delivery runs a job still
 * running (a paid call is never made twice). A batch prompt may wait for one call ahead of it, then make its own,
 * each with its retries, within PROVIDER_TIMEOUT_MS apiece; 30 s more for storing and recording. A consumer killed
 * mid-job leaves its jobs to be claimed again once this runs out (the Cron Trigger sends them again).
 */
export const claimMs = (config: Pick<Config, 'providers'>): number => 2 * config.providers.timeoutMs * (config.providers.retries + 1) + 30_000;

/** A Worker has no disk: paths in settings stay as written (only ComfyUI's workflows folder uses one, and Node only). */
const WORKER_PATHS: ConfigPaths = { resolve: (file) => file, join: (directory, file) => `${directory}/${file}` };

/** Node's defaults name a socket the Worker does not have: its own address comes from PUBLIC_BASE_URL or the request. */
export function workerConfig(env: WorkerBindings, origin: string | undefined): Config {
  const settings = settingsOf(env);
  return parseConfig({ ...settings, PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL ?? origin }, WORKER_PATHS);
}

/**
 * R2_PUBLIC_URL: the bucket's public domain (r2.dev or a custom one), when images are served from there rather than
 * by this Worker at PUBLIC_BASE_URL/files. Workers only, so it is read here rather than by the shared schema.
 */
function r2PublicUrl(env: WorkerBindings): string | undefined {
  const value = settingsOf(env).R2_PUBLIC_URL;
  if (value === undefined || value === '') return undefined;
  if (!/^https?:\/\/[^/\s]+/.test(value))
    throw new ConfigError(
      `Invalid configuration:\n  R2_PUBLIC_URL: expected the bucket's public address, such as https://images.example.com (got ${JSON.stringify(value)})`,
    );
  return value.replace(/\/+$/, '');
}

/** Said instead of a 500 when the D1 database has no tables yet. */
const NO_SCHEMA =
  'the D1 database has no tables yet: apply the migrations with `npx wrangler d1 migrations apply DB --local` (for `wrangler dev`) or `--remote` (deployed), then try again';

/** The D1 database has not been migrated: the Worker answers 503 with NO_SCHEMA until it is. */
export class SchemaMissing extends Error {}

/** What a caller may put in place of the real thing: tests drive time and batch settings, as Node's harness does. */
export interface WorkerInjections {
  clock?: Clock;
  ids?: IdGenerator;
  randomSeed?: () => number;
  batch?: Partial<BatchSettings>;
  /** Extra or replacement providers by id; a provider given here counts as configured (as on Node). */
  providers?: Readonly<Record<string, ImageProvider>>;
}

export interface WorkerRuntime {
  deps: Deps;
  db: KyselyDatabase;
  config: Config;
  queue: CloudflareJobQueue;
}

/**
 * The Workers composition root: D1, R2, a Queue, a Durable Object per rate-limit key and per generation's events, Workers AI through its
 * binding, image work inline, webhooks over fetch with DNS-over-HTTPS checks. Built once per isolate, on its first
 * event, from the bindings; nothing here opens a socket or starts a timer.
 */
export async function buildWorkerDeps(env: WorkerBindings, config: Config, inject: WorkerInjections = {}): Promise<WorkerRuntime> {
  const logger = createConsoleLogger(config.logLevel);
  const clock = inject.clock ?? systemClock;
  const db = createD1Database(env.DB);
  // Before anything reads a table (the sample templates, the webhook secret): said as what to run, not as D1's error.
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'jobs'`.execute(db.kysely);
  if (tables.rows.length === 0) throw new SchemaMissing(NO_SCHEMA);
  const codec = createInlineImageWork();
  const metrics = createNoMetrics();
  const fetchImpl: typeof fetch = (input, init) => fetch(input, init);
  // Workers AI goes through the binding when there is one (no token); otherwise over REST as on Node.
  const specs = env.AI === undefined ? PROVIDER_SPECS : [...PROVIDER_SPECS.filter((spec) => spec.id !== 'workers-ai'), workersAiBindingSpec(env.AI)];
  const { providers, models, statusOf } = withProviders(buildProviderSet(config, { fetch: fetchImpl, specs, cpu: codec, metrics }), inject.providers);
  const catalog = createModelCatalog(models, statusOf, config.defaultModel, codec.outputFormats);
  if (catalog.find(config.defaultModel) === undefined) {
    throw new ConfigError(`Invalid configuration:\n  DEFAULT_MODEL: unknown model ${JSON.stringify(config.defaultModel)}; GET /api/models lists the model ids`);
  }
  const queue = createCloudflareQueue({ db: db.kysely, producer: env.JOBS, clock, logger, leaseMs: claimMs(config) });
  const blobs = createR2BlobStore(env.BLOBS, { publicBaseUrl: r2PublicUrl(env) ?? `${config.publicBaseUrl}${FILES_PATH}` });
  await db.templates.seed(sampleTemplates);
  const deps: Deps = {
    db,
    blobs,
    providers,
    catalog,
    codec,
    clock,
    rateLimiter: createDurableObjectRateLimiter(env.RATE_LIMITS, clock),
    queue,
    // Across isolates through a Durable Object per generation; without the binding, within one isolate (watchers
    // elsewhere read the generation's row, see awaitGeneration).
    events: env.GENERATION_EVENTS === undefined ? createMemoryGenerationEvents() : createDurableObjectGenerationEvents(env.GENERATION_EVENTS, logger),
    webhooks: createFetchWebhookTransport({
      lookup: createDohLookup({ fetch: fetchImpl }),
      allowPrivateNetworks: config.webhooks.allowPrivateNetworks,
      fetch: fetchImpl,
    }),
    batchSettings: {
      maxPrompts: config.batch.maxPrompts,
      concurrency: config.worker.concurrency,
      retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
      webhookSecret: await resolveWebhookSecret(db, config.webhooks.secret),
      sweepIntervalMs: config.batch.sweepSeconds * 1000,
      ...inject.batch,
    },
    ids: inject.ids ?? createIdGenerator(),
    logger,
    randomSeed: inject.randomSeed ?? (() => crypto.getRandomValues(new Uint32Array(1))[0] ?? 0),
    readiness: [
      { name: 'database', check: () => db.ping() },
      { name: 'storage', check: async () => void (await env.BLOBS.list({ limit: 1 })) },
    ],
    metrics,
    uploadGates: createUploadGates(config.uploads),
    uploadMetadata: config.uploadMetadata,
  };
  return { deps, db, config, queue };
}
