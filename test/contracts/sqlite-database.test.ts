import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import { describeDatabaseContract } from './database.contract.js';

describeDatabaseContract('SQLite in memory', async () => createSqliteDatabase(':memory:'));
describeDatabaseContract('SQLite file', async () => createSqliteDatabase(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-db-')), 'test.sqlite')));
