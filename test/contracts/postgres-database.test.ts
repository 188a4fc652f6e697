import { describe } from 'vitest';
import { skipWithout } from '../../src/test-support/services.js';
import { openTestPostgresDatabase } from '../../src/test-support/postgres.js';
import { describeDatabaseContract } from './database.contract.js';

const skip = await skipWithout('postgres');

describe.skipIf(skip)('PostgreSQL', () => {
  describeDatabaseContract('PostgreSQL, a fresh schema per test', () => openTestPostgresDatabase());
});
