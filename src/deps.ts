import path from 'node:path';
import { pino, type Logger } from 'pino';
import { randomInt } from 'node:crypto';
import { proceduralModel } from './adapters/providers/procedural/model.js';
import { createProceduralProvider } from './adapters/providers/procedural/procedural-provider.js';
import { createWorkersAiProvider } from './adapters/providers/workers-ai/workers-ai-provider.js';
import { createLocalBlobStore } from './adapters/blob/local-blob-store.js';
import { createSqliteDatabase } from './adapters/db/sqlite.js';
import { createFlexibleRateLimiter } from './adapters/rate-limit/flexible-rate-limiter.js';
import { createDatabaseQueue } from './adapters/queue/database-queue.js';
import { systemLookup } from './adapters/webhooks/address-policy.js';
import { createHttpWebhookTransport } from './adapters/webhooks/http-webhook-transport.js';
import { resolveWebhookSecret } from './domain/webhooks/webhook-secret.js';
import type { Config } from './config.js';
import type { Deps } from './domain/context.js';
import { workersAiModels } from './domain/models/catalog/workers-ai.js';
import { createModelCatalog } from './domain/models/catalog.js';
import { providerStatus } from './domain/models/provider-settings.js';
import { sampleTemplates } from './domain/templates/sample-templates.js';
import { FILES_PATH } from './http/routes/system/files.js';
import type { KyselyDatabase } from './adapters/db/kysely-database.js';
import type { ImageProvider } from './ports/image-provider.js';
import { systemClock } from './ports/clock.js';
import { createIdGenerator } from './ports/ids.js';

export const ALL_MODELS = [proceduralModel, ...workersAiModels];

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'imagegate' } });
}

/** The one place adapters are chosen from configuration. */
export function buildProviders(config: Config): Map<string, ImageProvider> {
  const providers = new Map<string, ImageProvider>([['local', createProceduralProvider()]]);
  const { accountId, apiToken } = config.cloudflare;
  if (accountId !== undefined && apiToken !== undefined) {
    const parametersOf = (model: string) => new Set<string>(workersAiModels.find((m) => m.provider_model === model)?.parameters ?? []);
    providers.set('workers-ai', createWorkersAiProvider({ accountId, apiToken, baseUrl: config.cloudflare.apiBaseUrl }, parametersOf));
  }
  return providers;
}

/** The configured database, migrated; the server and the CLI share it (SQLite in WAL mode allows both at once). */
export async function openDatabase(config: Pick<Config, 'dataDir'>): Promise<KyselyDatabase> {
  const db = createSqliteDatabase(path.join(config.dataDir, 'imagegate.sqlite'));
  await db.migrate();
  return db;
}

export async function buildDeps(config: Config, logger: Logger = createLogger(config)): Promise<Deps> {
  const db = await openDatabase(config);
  await db.templates.seed(sampleTemplates);

  const providers = buildProviders(config);
  const configured = new Set(providers.keys());
  const settings: Record<string, string | undefined> = {
    CLOUDFLARE_ACCOUNT_ID: config.cloudflare.accountId,
    CLOUDFLARE_API_TOKEN: config.cloudflare.apiToken,
  };
  const catalog = createModelCatalog(ALL_MODELS, (provider) =>
    providerStatus(provider, configured, (setting) => settings[setting] !== undefined),
  );

  return {
    db,
    blobs: createLocalBlobStore({ root: path.join(config.dataDir, 'blobs'), publicBaseUrl: `${config.publicBaseUrl}${FILES_PATH}` }),
    providers,
    catalog,
    clock: systemClock,
    rateLimiter: createFlexibleRateLimiter({ clock: systemClock }),
    queue: createDatabaseQueue({ db: db.kysely, clock: systemClock, logger }),
    webhooks: createHttpWebhookTransport({ lookup: systemLookup, allowPrivateNetworks: config.webhooks.allowPrivateNetworks }),
    batchSettings: {
      maxPrompts: config.batch.maxPrompts,
      concurrency: config.batch.concurrency,
      retryScheduleSeconds: config.webhooks.retryScheduleSeconds,
      webhookSecret: await resolveWebhookSecret(db, config.webhooks.secret),
    },
    ids: createIdGenerator(),
    logger,
    randomSeed: () => randomInt(0, 2 ** 32),
  };
}
