import path from 'node:path';
import { pino, type Logger } from 'pino';
import { randomInt } from 'node:crypto';
import { createLocalBlobStore } from './adapters/blob/local-blob-store.js';
import { acquireDataDirLock, type DataDirLock } from './adapters/process/data-dir-lock.js';
import { prepareDataDir } from './adapters/process/data-dir.js';
import { StartupError, errorCode } from './adapters/process/startup-error.js';
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

const blobRoot = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'blobs');

/** Where the embedded database lives; the CLI names it so an operator sees which data it works on. */
export const databaseFile = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'imagegate.sqlite');

/** The configured database, migrated; the server and the CLI share it (SQLite in WAL mode allows both at once). */
export async function openDatabase(config: Pick<Config, 'dataDir'>): Promise<KyselyDatabase> {
  const file = databaseFile(config);
  let db: KyselyDatabase;
  try {
    db = createSqliteDatabase(file);
  } catch (error) {
    const code = errorCode(error) ?? '';
    if (!/^(SQLITE_(CANTOPEN|READONLY|PERM|NOTADB)|EACCES|EPERM|ENOTDIR|EROFS)/.test(code)) throw error;
    throw new StartupError(`cannot open the database ${file} (${error instanceof Error ? error.message : code}); make it readable and writable by this user, or set DATA_DIR to the server's data folder`);
  }
  await db.migrate();
  return db;
}

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
    blobs: createLocalBlobStore({ root: blobRoot(config), publicBaseUrl: `${config.publicBaseUrl}${FILES_PATH}` }),
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
