import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import { createPostgresDatabase } from '../../adapters/db/postgres.js';
import { postgresStartupError, throughDrops } from '../../adapters/db/postgres-startup.js';
import { createSqliteDatabase } from '../../adapters/db/sqlite.js';
import { StartupError, errorCode } from '../../adapters/process/startup-error.js';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';

/** How the database is named to people (logs, the CLI): never with its password. */
export function describeDatabase(config: Pick<Config, 'database'>): string {
  const { database } = config;
  if (database.kind === 'sqlite') return database.file;
  const url = new URL(database.url);
  if (url.password !== '') url.password = '***';
  return `${url.toString()}${database.schema === undefined ? '' : ` (schema ${database.schema})`}`;
}

/** The configured database, migrated (on PostgreSQL under an advisory lock, so a fleet starting together migrates once). */
export async function openDatabase(
  config: Pick<Config, 'database'>,
  logger?: Logger,
  onMigrated?: (applied: readonly string[]) => void,
): Promise<KyselyDatabase> {
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
    throw new StartupError(
      `cannot open the database ${file} (${error instanceof Error ? error.message : code}); make it readable and writable by this user, or set DATA_DIR to the server's data folder`,
    );
  }
  const applied = await db.migrate();
  onMigrated?.(applied);
  return db;
}
