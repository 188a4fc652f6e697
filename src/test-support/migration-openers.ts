import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../ports/database.js';
import { TEST_DATABASE_URL } from './services.js';
import { createTestSchema } from './test-schema.js';
import { createPostgresDatabase } from '../adapters/db/postgres.js';
import type { DatabaseSchema } from '../adapters/db/schema.js';

/** A bare database for a migration test: migrated step by step by the test itself. */
export interface OpenedForMigration {
  db: Kysely<DatabaseSchema>;
  /** Where the migration tables live (PostgreSQL: the test's own schema). */
  migrationTableSchema?: string;
  close(): Promise<void>;
}

/** For tests of one migration: each dialect, whether to skip it, and how to open an empty database of it. */
export function migrationTestOpeners(skipPostgres: boolean): [Database['dialect'], boolean, () => Promise<OpenedForMigration>][] {
  return [
    [
      'sqlite',
      false,
      async () => {
        const connection = new BetterSqlite3(':memory:');
        // As the server runs it: a table rebuild that dropped a table still referenced would fail here.
        connection.pragma('foreign_keys = ON');
        const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: connection }) });
        return { db, close: () => db.destroy() };
      },
    ],
    [
      'postgres',
      skipPostgres,
      async () => {
        const schema = await createTestSchema(TEST_DATABASE_URL);
        const opened = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 1, schema: schema.name });
        return {
          db: opened.kysely,
          migrationTableSchema: schema.name,
          close: async () => {
            await opened.close();
            await schema.drop();
          },
        };
      },
    ],
  ];
}
