import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyDatabase, type KyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';
import { walSyncer } from './sqlite-durable-writes.js';
import { withStatementCache } from './statement-cache.js';

/** SQLite in a file (or `:memory:`), WAL mode so the CLI can read while the server writes; the ledger synced on each commit. */
export function createSqliteDatabase(file: string, options: { syncWal?: (fd: number) => Promise<void> } = {}): KyselyDatabase {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  // The ledger's writes that must survive a power cut wait for a sync of the WAL: see walSyncer.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const { database, readCommitted } = withStatementCache(connection);
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database }) });
  return createKyselyDatabase(db, 'sqlite', { readCommitted, durable: walSyncer(file, options.syncWal) });
}
