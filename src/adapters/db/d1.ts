import { Kysely } from 'kysely';
import { D1Dialect } from 'kysely-d1';
import { createD1UnitOfWork, type D1Binding } from './d1-unit-of-work.js';
import { createKyselyDatabase, type KyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';

/** D1 binds at most 100 values per statement (developers.cloudflare.com/d1/platform/limits). */
export const D1_MAX_BOUND_PARAMETERS = 100;

type D1DialectDatabase = ConstructorParameters<typeof D1Dialect>[0]['database'];

export interface D1DatabaseOptions {
  /**
   * How the schema is brought up to date. Kysely's Migrator cannot run on D1 (its introspection reads tables D1
   * refuses, SQLITE_AUTH), so D1 gets migrations/d1: `wrangler d1 migrations apply`, or the runtime's own step.
   */
  migrate?: () => Promise<string[]>;
}

/**
 * The Database port on a Worker's D1 binding: SQLite's statements through kysely-d1, a unit of work on D1's
 * `batch()` (D1 has no interactive transactions), and statements split to D1's bound-value limit.
 */
export function createD1Database(binding: D1Binding, options: D1DatabaseOptions = {}): KyselyDatabase {
  // kysely-d1 types its binding with @cloudflare/workers-types' D1Database, which this neutral code does not load.
  const kysely = new Kysely<DatabaseSchema>({ dialect: new D1Dialect({ database: binding as unknown as D1DialectDatabase }) });
  return createKyselyDatabase(kysely, 'sqlite', {
    unitOfWork: createD1UnitOfWork(binding),
    maxBoundParameters: D1_MAX_BOUND_PARAMETERS,
    migrate: options.migrate ?? (async () => []),
  });
}
