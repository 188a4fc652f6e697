import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyDatabase, type KyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';
import { withStatementCache } from './statement-cache.js';

/** SQLite in a file (or `:memory:`), WAL mode so the CLI can read while the server writes. */
export function createSqliteDatabase(file: string): KyselyDatabase {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const { database, readCommitted } = withStatementCache(connection);
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database }) });
  return createKyselyDatabase(db, 'sqlite', { readCommitted });
}
