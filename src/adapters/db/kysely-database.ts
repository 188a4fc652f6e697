import { Migrator, sql, type Kysely } from 'kysely';
import type { Database } from '../../ports/database.js';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import { createAnalyticsRepository } from './analytics-repository.js';
import { createApiKeyRepository } from './api-keys-repository.js';
import { createGenerationRepository } from './generations-repository.js';
import { createBatchRepository } from './batches-repository.js';
import { createChargeRepository } from './charges-repository.js';
import { createSettingsRepository } from './settings-repository.js';
import { createCollectionRepository } from './collections-repository.js';
import { createIdempotencyRepository } from './idempotency-repository.js';
import { createImageRepository } from './images-repository.js';
import { migrationProvider } from './migrations/index.js';
import type { DatabaseSchema } from './schema.js';
import { createTemplateRepository } from './templates-repository.js';
import type { UnitOfWork } from '../../ports/db/unit-of-work.js';
import { DEFAULT_MAX_BOUND_PARAMETERS } from './statements.js';
import { createKyselyUnitOfWork } from './unit-of-work.js';
import type { CommittedRead } from './committed-read.js';
import { createWebhookOutboxRepository } from './webhook-outbox-repository.js';

/** The Database port over any Kysely dialect; the dialect-specific part is only how the connection is made. */
export interface KyselyDatabase extends Database {
  /** For adapters that live in the same database (the embedded job queue). */
  readonly kysely: Kysely<DatabaseSchema>;
}

export interface KyselyDatabaseOptions {
  /**
   * Runs every migration: PostgreSQL's holds a lock around it and names the schema the migration tables
   * live in (without one Kysely's Migrator takes a `kysely_migration` table in any schema as its own).
   */
  migrationLock?: (migrate: (migrationTableSchema: string | undefined) => Promise<string[]>) => Promise<string[]>;
  /** How writes that land together are committed: a Kysely transaction unless the database has none (D1's batch()). */
  unitOfWork?: UnitOfWork;
  /** Migrations run some other way than Kysely's Migrator (D1: `wrangler d1 migrations apply`, migrations/d1). */
  migrate?: () => Promise<string[]>;
  /**
   * Most values one statement may bind: SQLite allows 32,766 and PostgreSQL 65,535, D1 only 100. Reads of many keys
   * and inserts of many rows are split to stay under it.
   */
  maxBoundParameters?: number;
  /** SQLite's synchronous read of committed rows, for the hottest statements (see committed-read.ts). */
  readCommitted?: CommittedRead;
  /**
   * Resolves once every commit so far would survive a power cut, for the ledger's writes that must (SQLite syncs
   * its WAL: sqlite-durable-writes.ts). Absent where every commit already is durable (PostgreSQL, D1).
   */
  durable?: () => Promise<void>;
}

export function createKyselyDatabase(db: Kysely<DatabaseSchema>, dialect: Database['dialect'], options: KyselyDatabaseOptions = {}): KyselyDatabase {
  const migrate = async (migrationTableSchema?: string): Promise<string[]> => {
    const migrator = new Migrator({ db, provider: migrationProvider(dialect), migrationTableSchema });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    // An unreachable server is said as such, so a caller can tell it from a migration that is wrong.
    if (error instanceof DependencyUnavailable) throw error;
    if (error !== undefined || failed !== undefined) {
      const name = failed?.migrationName ?? 'unknown';
      throw new Error(`database migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
  };
  const unit = options.unitOfWork ?? createKyselyUnitOfWork(db);
  const maxBoundParameters = options.maxBoundParameters ?? DEFAULT_MAX_BOUND_PARAMETERS;
  return {
    dialect,
    kysely: db,
    commit: (writes) => unit.commit(writes),
    images: createImageRepository(db, dialect, unit, { maxBoundParameters, readCommitted: options.readCommitted }),
    collections: createCollectionRepository(db, unit),
    templates: createTemplateRepository(db),
    analytics: createAnalyticsRepository(db),
    apiKeys: createApiKeyRepository(db),
    batches: createBatchRepository(db, dialect, unit, { maxBoundParameters }),
    generations: createGenerationRepository(db, dialect, unit, { maxBoundParameters }),
    webhookOutbox: createWebhookOutboxRepository(db, unit),
    settings: createSettingsRepository(db),
    idempotency: createIdempotencyRepository(db),
    charges: createChargeRepository(db, dialect, { maxBoundParameters, durable: options.durable }),
    async migrate() {
      if (options.migrate !== undefined) return options.migrate();
      return options.migrationLock === undefined ? migrate() : options.migrationLock(migrate);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
