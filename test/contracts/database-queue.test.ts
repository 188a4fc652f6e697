import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { databaseQueueFixture } from './database-queue-fixture.js';
import { describeJobQueueContract } from './job-queue.contract.js';

// One in-memory database per test; "another process" shares its connection, as SQLite allows one writer anyway.
describeJobQueueContract('jobs in the database (SQLite, the only worker)', async () => {
  const db = createSqliteDatabase(':memory:');
  return databaseQueueFixture({ db, connect: async () => db });
});

describeJobQueueContract(
  'jobs in the database (SQLite, with leases)',
  async () => {
    const db = createSqliteDatabase(':memory:');
    return databaseQueueFixture({ db, connect: async () => db, exclusive: false });
  },
  { leases: true },
);
