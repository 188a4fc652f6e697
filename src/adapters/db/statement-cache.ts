import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { CommittedRead } from './committed-read.js';
import { translateSqliteError, translatingStatement } from './sqlite-errors.js';

/** Distinct queries the service makes are a few hundred; more than this means generated SQL, so the oldest go. */
const MAX_STATEMENTS = 1000;

/**
 * better-sqlite3 compiles SQL on every `prepare`; Kysely prepares each query anew. Keeping the compiled
 * statement per SQL text saves that work on every request (a third of a list request's time, profiled).
 * Safe because Kysely runs one query at a time on this connection.
 */
export function withStatementCache(connection: BetterSqlite3.Database): { database: SqliteDatabase; readCommitted: CommittedRead } {
  const statements = new Map<string, SqliteStatement>();
  const prepare = (sql: string): SqliteStatement => {
    const cached = statements.get(sql);
    if (cached !== undefined) return cached;
    let statement: SqliteStatement;
    try {
      statement = translatingStatement(connection.prepare(sql));
    } catch (error) {
      throw translateSqliteError(error);
    }
    if (statements.size >= MAX_STATEMENTS) {
      const oldest = statements.keys().next().value;
      if (oldest !== undefined) statements.delete(oldest);
    }
    statements.set(sql, statement);
    return statement;
  };
  return {
    database: { close: () => connection.close(), prepare },
    // Kysely's mutex only orders async callers around the one connection; better-sqlite3 itself is synchronous.
    // Outside a transaction nothing is half-done on the connection, so a read here sees exactly what is committed,
    // as a read through Kysely would. Inside one (a unit of work between its awaits) it would see uncommitted rows:
    // the caller goes through Kysely instead, which waits for the commit.
    readCommitted: (sql, parameters) => (connection.inTransaction ? undefined : (prepare(sql).all(parameters) as Record<string, unknown>[])),
  };
}
