import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from './sqlite.js';
import { withDurableLedgerWrites } from './sqlite-durable-writes.js';

const open: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

function ledger(): { run: (sql: string, ...parameters: unknown[]) => void; syncs: () => number } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
  const connection = new BetterSqlite3(file);
  open.push(connection);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.exec('create table charges (id text primary key, outcome text); create table images (id text primary key)');
  let syncs = 0;
  const prepare = withDurableLedgerWrites(
    connection,
    file,
    (sql) => connection.prepare(sql) as unknown as SqliteStatement,
    () => void (syncs += 1),
  );
  return { run: (sql, ...parameters) => void prepare(sql).run(parameters), syncs: () => syncs };
}

describe("SQLite's ledger writes", () => {
  it('sync the WAL after a write to charges outside a transaction, and not after other writes', () => {
    const db = ledger();
    db.run('insert into "images" ("id") values (?)', 'img_1');
    expect(db.syncs()).toBe(0);
    db.run('insert into "charges" ("id", "outcome") values (?, ?)', 'chg_1', 'reserved');
    expect(db.syncs()).toBe(1);
    db.run('update "charges" set "outcome" = ? where "id" = ?', 'succeeded', 'chg_1');
    expect(db.syncs()).toBe(2);
  });

  it('sync the WAL once, at the commit, for a transaction that wrote to charges; not for one that did not or rolled back', () => {
    const db = ledger();
    db.run('begin');
    db.run('insert into "charges" ("id", "outcome") values (?, ?)', 'chg_1', 'reserved');
    db.run('insert into "images" ("id") values (?)', 'img_1');
    expect(db.syncs()).toBe(0);
    db.run('commit');
    expect(db.syncs()).toBe(1);
    db.run('begin');
    db.run('insert into "images" ("id") values (?)', 'img_2');
    db.run('commit');
    db.run('begin');
    db.run('update "charges" set "outcome" = ? where "id" = ?', 'succeeded', 'chg_1');
    db.run('rollback');
    db.run('begin');
    db.run('insert into "images" ("id") values (?)', 'img_3');
    db.run('commit');
    expect(db.syncs()).toBe(1);
  });

  it('keep the database in WAL mode, so the CLI reads while the server writes', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    const db = createSqliteDatabase(file);
    await db.migrate();
    const reader = new BetterSqlite3(file, { readonly: true });
    open.push(reader);
    expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
    await db.close();
  });
});
