import { createHash } from 'node:crypto';
import pg from 'pg';
import { Kysely } from 'kysely';
import { SearchPathPostgresDialect } from './postgres-introspector.js';
import type { Logger } from '../../ports/logger.js';
import { createKyselyDatabase, type KyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';

export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database`, as `pg` reads it. */
  url: string;
  /** Connections in this process's pool. */
  poolSize: number;
  /** Puts every table in this schema (created by the first migration if missing) instead of the role's default; tests isolate each database in one. */
  schema?: string;
  /** Where errors of idle pooled connections go (the server restarted, say): unheard, `pg` would crash the process. */
  logger?: Logger;
}

/** Names we put into `search_path` unquoted; anything else is refused rather than escaped. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The advisory lock every process takes before migrating `schema`, so a fleet starting together migrates
 * once: a 64-bit key from the schema's name (schemas of one database migrate independently).
 */
export function migrationLockKey(schema: string): string {
  return createHash('sha256').update(`imagegate migrations ${schema}`).digest().readBigInt64BE(0).toString();
}

/**
 * Type parsers for our pool only (pg's global ones belong to every user of the module): COUNT(*) is
 * bigint and SUM can be numeric in PostgreSQL, which pg hands back as strings; SQLite gives numbers. Row
 * counts and sums of costs stay far below 2^53, where Number is exact.
 */
function numericTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, 'text', Number);
  types.setTypeParser(pg.types.builtins.NUMERIC, 'text', Number);
  return types;
}

function postgresConnectionConfig(options: Pick<PostgresDatabaseOptions, 'url' | 'schema'>): pg.ClientConfig {
  const { url, schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
  return {
    connectionString: url,
    // Set at connection start, so it holds on every pooled connection, in and out of transactions.
    options: schema === undefined ? undefined : `-c search_path=${schema}`,
    types: numericTypes(),
    connectionTimeoutMillis: 10_000,
    application_name: 'imagegate',
  };
}

/**
 * Runs `migrate` for the configured schema (or the connection's current one) while holding its migration
 * lock, on a connection of its own outside the pool (which may have one connection only).
 */
async function withMigrationLock(config: pg.ClientConfig, schema: string | undefined, migrate: (schema: string | undefined) => Promise<void>): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const target = schema ?? (await client.query<{ schema: string | null }>('select current_schema() as schema')).rows[0]?.schema ?? undefined;
    const key = migrationLockKey(target ?? '');
    await client.query('select pg_advisory_lock($1)', [key]);
    try {
      // A configured schema is created by the first migration. Looked up first: CREATE SCHEMA IF NOT
      // EXISTS demands the CREATE right on the database even when the schema is there already.
      if (schema !== undefined && (await client.query('select 1 from pg_namespace where nspname = $1', [schema])).rowCount === 0) {
        await client.query(`create schema ${schema}`);
      }
      await migrate(target);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [key]);
    }
  } finally {
    // Ending the session also releases the lock, should the unlock above have failed.
    await client.end();
  }
}

/** PostgreSQL through a `pg` pool; the same repositories and migrations as SQLite. */
export function createPostgresDatabase(options: PostgresDatabaseOptions): KyselyDatabase {
  if (!Number.isInteger(options.poolSize) || options.poolSize < 1) throw new Error(`PostgreSQL pool size must be a positive integer (got ${options.poolSize})`);
  const config = postgresConnectionConfig(options);
  const pool = new pg.Pool({ ...config, max: options.poolSize });
  pool.on('error', (error) => options.logger?.error({ err: error.message }, 'an idle PostgreSQL connection failed; the pool replaces it'));
  const db = new Kysely<DatabaseSchema>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return createKyselyDatabase(db, 'postgres', { migrationLock: (migrate) => withMigrationLock(config, options.schema, migrate) });
}
