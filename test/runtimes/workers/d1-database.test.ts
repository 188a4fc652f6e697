import { applyD1Migrations, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { emptyTables } from '../../../src/test-support/empty-tables.js';
import { createD1Database } from '../../../src/adapters/db/d1.js';
import type { D1Binding } from '../../../src/adapters/db/d1-unit-of-work.js';
import { describeChargeContract } from '../../contracts/charges.contract.js';
import { describeDatabaseContract } from '../../contracts/database.contract.js';

/**
 * The Database contract, the same suite SQLite and PostgreSQL pass, on D1 as workerd runs it locally, with the
 * schema of migrations/d1. The file's tests share one D1 database, so each starts by emptying every table.
 */
/** The file's one D1 database, migrated with migrations/d1 and emptied before each test. */
async function openD1() {
  const db = createD1Database(env.DB as D1Binding, {
    migrate: async () => {
      await applyD1Migrations(env.DB, env.D1_MIGRATIONS as D1Migration[]);
      await emptyTables(db.kysely);
      return [];
    },
  });
  return db;
}

describeDatabaseContract('D1, in workerd', openD1);

// The charge ledger and key budgets (the one-statement reservation SQLite uses, on D1's SQLite).
describeChargeContract('D1, in workerd', openD1);
