import { describe } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { openTestPostgresDatabase } from '../../src/test-support/postgres.js';
import { skipWithout } from '../../src/test-support/services.js';
import { describeChargeContract } from './charges.contract.js';

describeChargeContract('SQLite in memory', async () => createSqliteDatabase(':memory:'));

const skip = await skipWithout('postgres');
describe.skipIf(skip)('PostgreSQL', () => {
  describeChargeContract('PostgreSQL, a fresh schema per test', () => openTestPostgresDatabase());
});
