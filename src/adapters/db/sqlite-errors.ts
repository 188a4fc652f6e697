import type { SqliteStatement } from 'kysely';
import { markIfTransient, type DriverFailures } from '../support/transient-errors.js';

/** SQLite's codes for a database file that is busy, locked, failing to read or write, or full: not the statement's fault. */
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL']);
const SQLITE: DriverFailures = { codes: (code) => BUSY_CODES.has(code) };

/** A better-sqlite3 error as the port states it: marked as a TransientFailure when the file, not the statement, failed. */
export const translateSqliteError = (error: unknown): unknown => markIfTransient(error, SQLITE);

/**
 * The statement, its failures translated. better-sqlite3 runs statements synchronously, so this is the one place
 * every query passes (Kysely's, and the committed reads beside it) without a promise more per query.
 */
export function translatingStatement(statement: SqliteStatement): SqliteStatement {
  return {
    reader: statement.reader,
    all(parameters) {
      try {
        return statement.all(parameters);
      } catch (error) {
        throw translateSqliteError(error);
      }
    },
    run(parameters) {
      try {
        return statement.run(parameters);
      } catch (error) {
        throw translateSqliteError(error);
      }
    },
    *iterate(parameters) {
      try {
        yield* statement.iterate(parameters);
      } catch (error) {
        throw translateSqliteError(error);
      }
    },
  };
}
