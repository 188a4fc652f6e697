import { applyD1Migrations, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Kysely } from 'kysely';
import { D1Dialect } from 'kysely-d1';
import { createD1UnitOfWork, type D1Binding } from '../../../src/adapters/db/d1-unit-of-work.js';
import { createKyselyDatabase } from '../../../src/adapters/db/kysely-database.js';
import type { DatabaseSchema } from '../../../src/adapters/db/schema.js';
import { describeUnitOfWorkContract } from '../../contracts/unit-of-work.contract.js';

/** The unit-of-work contract on D1's batch(), with the schema of migrations/d1, as workerd runs D1 locally. */
describeUnitOfWorkContract('D1 batch(), in workerd', async () => {
  const d1 = env.DB as D1Binding;
  const kysely = new Kysely<DatabaseSchema>({ dialect: new D1Dialect({ database: env.DB as never }) });
  const db = createKyselyDatabase(kysely, 'sqlite', {
    unitOfWork: createD1UnitOfWork(d1),
    maxBoundParameters: 100,
    migrate: async () => {
      await applyD1Migrations(env.DB, env.D1_MIGRATIONS as D1Migration[]);
      // The tests share the file's database: each starts from no settings.
      await kysely.deleteFrom('settings').execute();
      return [];
    },
  });
  return db;
});
