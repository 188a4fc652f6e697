import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/** SQL texts remembered as needing no sync; past this, the memory starts again (generated SQL). */
const MAX_PLAIN = 1000;

/** A write to the ledger: what must survive a power cut before the provider is called, or after it answered. */
const LEDGER_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+"charges"/i;

/**
 * SQLite runs with `synchronous = NORMAL` in WAL mode: a commit is safe from an application crash (kill -9) at once,
 * and from a power cut or an OS crash once the WAL is next synced (at the latest, the next checkpoint). That spares
 * every commit an fsync (1 to 2 ms here, blocking the event loop, 6 to 8 of them on a generate's path) at the cost
 * of the last moments' commits on a power cut. The ledger is exempt: a commit that wrote to `charges` (a reservation
 * made before a paid call, its journal, its settlement) syncs the WAL before it returns, as `synchronous = FULL`
 * would, so a call that may cost money is on disk before it is made.
 *
 * Wraps `prepare` so those statements, and the commit of a transaction that ran one, sync the WAL file after running.
 */
export function withDurableLedgerWrites(
  connection: BetterSqlite3.Database,
  file: string,
  prepare: (sql: string) => SqliteStatement,
  sync: (fd: number) => void = fs.fdatasyncSync,
): (sql: string) => SqliteStatement {
  if (file === ':memory:') return prepare;
  let walFd: number | undefined;
  let pending = false;
  const syncWal = () => {
    pending = false;
    // The WAL exists from the first write; SQLite keeps the same file (rewinding it after a checkpoint) while open.
    walFd ??= fs.openSync(`${file}-wal`, 'r');
    sync(walFd);
  };
  const after = (statement: SqliteStatement, effect: () => void): SqliteStatement => ({
    reader: statement.reader,
    run: (parameters) => {
      const result = statement.run(parameters);
      effect();
      return result;
    },
    all: (parameters) => {
      const rows = statement.all(parameters);
      effect();
      return rows;
    },
    iterate: (parameters) => statement.iterate(parameters),
  });
  const effectOf = (sql: string): (() => void) | undefined => {
    if (LEDGER_WRITE.test(sql)) return () => (connection.inTransaction ? (pending = true) : syncWal());
    const keyword = sql.trim().toLowerCase();
    if (keyword === 'commit') return () => pending && syncWal();
    if (keyword === 'rollback') return () => (pending = false);
    return undefined;
  };
  // Every query comes through here: each SQL text is classified once (the ledger's few wrapped, the rest remembered
  // as plain, bounded as the statement cache is), not matched against the pattern on every call.
  const wrapped = new Map<string, SqliteStatement>();
  const plain = new Set<string>();
  return (sql) => {
    const known = wrapped.get(sql);
    if (known !== undefined) return known;
    if (plain.has(sql)) return prepare(sql);
    const effect = effectOf(sql);
    if (effect === undefined) {
      if (plain.size >= MAX_PLAIN) plain.clear();
      plain.add(sql);
      return prepare(sql);
    }
    const made = after(prepare(sql), effect);
    wrapped.set(sql, made);
    return made;
  };
}
