import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresDatabase } from '../adapters/db/postgres.js';
import type { KyselyDatabase } from '../adapters/db/kysely-database.js';
import { TEST_DATABASE_URL } from './services.js';

export interface TestSchema {
  readonly name: string;
  /** Drops the schema and everything in it; call it once every pool on it has closed. */
  drop(): Promise<void>;
}

async function run(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh, empty schema in the test database: tests running in parallel each get their own tables. */
export async function createTestSchema(): Promise<TestSchema> {
  const name = `test_${randomBytes(8).toString('hex')}`;
  await run(`create schema ${name}`);
  return { name, drop: () => run(`drop schema if exists ${name} cascade`) };
}

/** A PostgreSQL Database on a fresh schema, not migrated yet; closing it also drops the schema. */
export async function openTestPostgresDatabase(poolSize = 4): Promise<KyselyDatabase> {
  const schema = await createTestSchema();
  const db = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize, schema: schema.name });
  return {
    ...db,
    close: async () => {
      await db.close();
      await schema.drop();
    },
  };
}
