import { pino } from 'pino';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { createDatabaseQueue } from '../../src/adapters/queue/database-queue.js';
import { createTestClock } from '../../src/test-support/harness.js';
import { describeJobQueueContract } from './job-queue.contract.js';

describeJobQueueContract('jobs in the database (SQLite)', async () => {
  const db = createSqliteDatabase(':memory:');
  await db.migrate();
  const clock = createTestClock();
  const logger = pino({ level: 'silent' });
  const make = () => createDatabaseQueue({ db: db.kysely, clock, logger, pollMs: 10 });
  const queue = make();
  return {
    queue,
    advance: (ms) => clock.advance(ms),
    reopen: async () => make(),
    peer: async () => make(),
    close: async () => {
      // The interrupted job's handler never settles; closing must not wait for it.
      await Promise.race([queue.close(), new Promise((resolve) => setTimeout(resolve, 50))]);
      await db.close();
    },
  };
});
