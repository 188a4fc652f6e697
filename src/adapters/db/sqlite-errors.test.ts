import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { looksLikeInfrastructure } from '../../domain/infrastructure-failure.js';
import { isTransientFailure } from '../../ports/dependency-unavailable.js';
import { translateSqliteError } from './sqlite-errors.js';
import { withStatementCache } from './statement-cache.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

const open: BetterSqlite3.Database[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe('SQLite errors', () => {
  it('marks a database another connection is writing to as a transient failure, through the statements Kysely runs', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-errors-'));
    folders.push(folder);
    const file = path.join(folder, 'busy.sqlite');
    const holder = new BetterSqlite3(file);
    const other = new BetterSqlite3(file, { timeout: 0 });
    open.push(holder, other);
    holder.exec('create table t (x integer)');
    holder.exec('begin immediate');
    holder.exec('insert into t values (1)');
    const { database } = withStatementCache(other);
    let thrown: unknown;
    try {
      database.prepare('insert into t values (2)').run([]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(isTransientFailure(thrown)).toBe(true);
    expect(looksLikeInfrastructure(thrown)).toBe(true);
  });

  it('leaves a statement that is wrong as it is: a constraint the row breaks is the work failing', () => {
    const connection = new BetterSqlite3(':memory:');
    open.push(connection);
    connection.exec('create table t (x integer primary key)');
    const { database } = withStatementCache(connection);
    database.prepare('insert into t values (1)').run([]);
    let thrown: unknown;
    try {
      database.prepare('insert into t values (1)').run([]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(looksLikeInfrastructure(thrown)).toBe(false);
  });

  it.each(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL'])('counts %s as infrastructure', (code) => {
    expect(looksLikeInfrastructure(translateSqliteError(withCode(code)))).toBe(true);
  });
});
