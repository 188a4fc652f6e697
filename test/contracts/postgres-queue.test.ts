import { describe } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/db/postgres.js';
import { createTestSchema } from '../../src/test-support/test-schema.js';
import { TEST_DATABASE_URL, skipWithout } from '../../src/test-support/services.js';
import { databaseQueueFixture } from './database-queue-fixture.js';
import { describeJobQueueContract } from './job-queue.contract.js';

const skip = await skipWithout('postgres');

describe.skipIf(skip)('PostgreSQL', () => {
  // Each worker process gets its own pool on the test's fresh schema; the schema goes when the first closes, last.
  describeJobQueueContract(
    'jobs in the database (PostgreSQL, several workers)',
    async () => {
      const schema = await createTestSchema(TEST_DATABASE_URL);
      const connect = async () => createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 3, schema: schema.name });
      const db = await connect();
      return databaseQueueFixture({
        db: { ...db, close: async () => (await db.close(), await schema.drop()) },
        connect,
      });
    },
    { leases: true },
  );
});
