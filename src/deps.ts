import path from 'node:path';
import { pino, type Logger } from 'pino';
import { randomInt } from 'node:crypto';
import { createLocalBlobStore } from './adapters/blob/local-blob-store.js';
import { createSqliteDatabase } from './adapters/db/sqlite.js';
import { createFlexibleRateLimiter } from './adapters/rate-limit/flexible-rate-limiter.js';
import { createDatabaseQueue } from './adapters/queue/database-queue.js';
import { systemLookup } from './adapters/webhooks/address-policy.js';
import { createHttpWebhookTransport } from './adapters/webhooks/http-webhook-transport.js';
import { resolveWebhookSecret } from './domain/webhooks/webhook-secret.js';
import { ConfigError, type Config } from './config.js';
import type { Deps } from './domain/context.js';
import { createModelCatalog } from './domain/models/catalog.js';
import { buildProviderSet } from './providers.js';
import { sampleTemplates } from './domain/templates/sample-templates.js';
import { FILES_PATH } from './http/routes/system/files.js';
import type { KyselyDatabase } from './adapters/db/kysely-database.js';
import { systemClock } from './ports/clock.js';
import { createIdGenerator } from './ports/ids.js';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'imagegate' } });
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

  const { providers, models, statusOf } = buildProviderSet(config);
  const catalog = createModelCatalog(models, statusOf, config.defaultModel);
  if (catalog.find(config.defaultModel) === undefined) {
    throw new ConfigError(`Invalid configuration:\n  DEFAULT_MODEL: unknown model ${JSON.stringify(config.defaultModel)}; \`imagegate models --all\` lists the model ids`);
  }

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
