import { describe } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { openTestPostgresDatabase } from '../../src/test-support/postgres.js';
import { skipWithout } from '../../src/test-support/services.js';
import { describeUnitOfWorkContract } from './unit-of-work.contract.js';

const skipPostgres = await skipWithout('postgres');

describeUnitOfWorkContract('SQLite', async () => createSqliteDatabase(':memory:'));
describe.skipIf(skipPostgres)('PostgreSQL', () => describeUnitOfWorkContract('PostgreSQL, a fresh schema per test', () => openTestPostgresDatabase()));
