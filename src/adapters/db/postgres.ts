import { createHash } from 'node:crypto';
import pg from 'pg';
import { Kysely } from 'kysely';
import { SearchPathPostgresDialect } from './postgres-introspector.js';
import type { Logger } from '../../ports/logger.js';
import { translatePostgresError } from './postgres-errors.js';
import { burstWarning } from '../support/burst-warning.js';
import { createKyselyDatabase, type KyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';

export interface PostgresDatabaseOptions {
  /** `postgres://user:password@host:port/database`, as `pg` reads it. */
  url: string;
  /** Connections in this process's pool. */
  poolSize: number;
  /** Puts every table in this schema (created by the first migration if missing) instead of the role's default; tests isolate each database in one. */
  schema?: string;
  /** Where connection errors go (the server restarted, the link dropped): unheard, `pg` would crash the process. */
  logger?: Logger;
  /** How long to wait for a new connection (and for a free pooled one) before the operation fails. */
  connectTimeoutMs?: number;
  /** The longest one statement may run, on the server (`statement_timeout`) and, a little later, in the client (a dead link never answers). 0: no limit. */
  statementTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** The client gives up this long after the server would have: a server that is there cancels first, and says so. */
const CLIENT_TIMEOUT_MARGIN_MS = 2_000;

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

function postgresConnectionConfig(options: Pick<PostgresDatabaseOptions, 'url' | 'schema' | 'connectTimeoutMs'>): pg.ClientConfig {
  const { url, schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name ${JSON.stringify(schema)}`);
  return {
    connectionString: url,
    // Set at connection start, so it holds on every pooled connection, in and out of transactions.
    options: schema === undefined ? undefined : `-c search_path=${schema}`,
    types: numericTypes(),
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // A link that dies without a reset (a cable, a NAT forgetting us) is noticed by the kernel, not only by a query timing out.
    keepAlive: true,
    application_name: 'imagegate',
  };
}

/** The pool's statements are bounded; the migration lock's wait is not (another process may migrate for minutes). */
function statementLimits(statementTimeoutMs: number): Pick<pg.ClientConfig, 'statement_timeout' | 'query_timeout'> {
  if (statementTimeoutMs === 0) return {};
  return { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS };
}

/**
 * Runs `migrate` for the configured schema (or the connection's current one) while holding its migration
 * lock, on a connection of its own outside the pool (which may have one connection only).
 */
async function withMigrationLock<T>(
  config: pg.ClientConfig,
  schema: string | undefined,
  warn: (error: unknown) => void,
  migrate: (schema: string | undefined) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(config);
  // A dropped connection then fails the query in hand (and the migration with it), not the process.
  client.on('error', warn);
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
      return await migrate(target);
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
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  if (!Number.isInteger(statementTimeoutMs) || statementTimeoutMs < 0)
    throw new Error(`PostgreSQL statement timeout must be a whole number of milliseconds (got ${statementTimeoutMs})`);
  const pool = new pg.Pool({ ...config, ...statementLimits(statementTimeoutMs), max: options.poolSize });
  const warn = burstWarning(options.logger, 'a PostgreSQL connection failed; operations on it fail, the pool opens new ones');
  // The pool listens to its idle clients only: a client checked out (a transaction between two statements)
  // whose connection drops would emit 'error' to nobody and end the process. Each client gets a listener.
  pool.on('error', warn);
  pool.on('connect', (client) => client.on('error', warn));
  const db = new Kysely<DatabaseSchema>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return createKyselyDatabase(db, 'postgres', {
    migrationLock: async (migrate) => {
      try {
        return await withMigrationLock(config, options.schema, warn, migrate);
      } catch (error) {
        throw translatePostgresError(error);
      }
    },
  });
}
