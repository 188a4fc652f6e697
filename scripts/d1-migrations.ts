import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import path from 'node:path';
import { migrationsFor } from '../src/adapters/db/migrations/index.js';

/** Where `wrangler d1 migrations apply` (and the Workers test project) read D1's migrations from. */
export const D1_MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../migrations/d1');

/** A bound value written as an SQL literal: D1's migration files are plain SQL, without parameters. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`a migration bound a ${typeof value}, which has no SQL literal here`);
}

/** The statement with its `?` placeholders replaced by literals, in order (SQLite's placeholders are positional). */
function inline(query: CompiledQuery): string {
  let index = 0;
  return query.sql.replace(/\?/g, () => literal(query.parameters[index++]));
}

/**
 * The SQLite migrations (the same ones Kysely runs on Node) as D1 migration files, one per migration: each is run
 * on an empty in-memory SQLite and its statements are recorded as they are sent. Kysely's Migrator cannot run on
 * D1 itself (its schema introspection is refused there, SQLITE_AUTH), so D1 applies these files instead.
 * Reads (a data migration finding nothing to fix on an empty database) and transaction statements are left out.
 */
export async function d1MigrationFiles(): Promise<{ file: string; sql: string }[]> {
  const connection = new BetterSqlite3(':memory:');
  let sent: CompiledQuery[] = [];
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: connection }),
    log: (event) => void (event.level === 'query' && sent.push(event.query)),
  });
  const files: { file: string; sql: string }[] = [];
  try {
    for (const [index, [name, migration]] of Object.entries(migrationsFor('sqlite')).entries()) {
      sent = [];
      await migration.up(db);
      // D1 applies a file as one batch, atomically, and refuses BEGIN and COMMIT of its own.
      const statements = sent
        .filter((query) => !/^\s*(select|begin|commit|rollback|savepoint|release)\b/i.test(query.sql))
        .map((query) => `${inline(query).trim()};`);
      const file = `${String(index + 1).padStart(4, '0')}_${name.replace(/^\d+-/, '').replaceAll('-', '_')}.sql`;
      files.push({
        file,
        sql: `-- Generated from src/adapters/db/migrations/${name}.ts by npm run gen:d1-migrations; do not edit.\n${statements.join('\n')}\n`,
      });
    }
  } finally {
    await db.destroy();
  }
  return files;
}
