import { createPostgresDatabase } from '../adapters/db/postgres.js';
import type { KyselyDatabase } from '../adapters/db/kysely-database.js';
import { TEST_DATABASE_URL } from './services.js';
import { createTestSchema } from './test-schema.js';

/** A PostgreSQL Database on a fresh schema, not migrated yet; closing it also drops the schema. */
export async function openTestPostgresDatabase(poolSize = 4): Promise<KyselyDatabase> {
  const schema = await createTestSchema(TEST_DATABASE_URL);
  const db = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize, schema: schema.name });
  return {
    ...db,
    close: async () => {
      await db.close();
      await schema.drop();
    },
  };
}
