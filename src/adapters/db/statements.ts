import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DatabaseSchema } from './schema.js';

/** Under SQLite's and PostgreSQL's limits on bound values; D1 passes its own 100. */
export const DEFAULT_MAX_BOUND_PARAMETERS = 32_766;

/**
 * One row of `values` as a SELECT that yields it only where `guard` holds: the body of an INSERT … SELECT, the
 * conditional insert a unit of work uses where an interactive transaction would have read first. The values come
 * in the order of `columns`, which the INSERT must name in the same order (it matches them by position).
 */
export const valuesWhere = <Column extends string>(
  db: Kysely<DatabaseSchema>,
  columns: readonly Column[],
  values: Readonly<Record<Column, unknown>>,
  guard: Expression<SqlBool>,
) => db.selectNoFrom(columns.map((column) => sql`${values[column]}`.as(column))).where(guard);

/**
 * How many of something fit in one statement: at most `preferred` (batches stay of a size a database handles
 * quickly), and never more bound values than the database allows (D1: 100), given how many each one binds.
 */
export function perStatement(preferred: number, maxBoundParameters: number, valuesEach: number, valuesBesides = 0): number {
  return Math.max(1, Math.min(preferred, Math.floor((maxBoundParameters - valuesBesides) / valuesEach)));
}
