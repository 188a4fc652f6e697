/**
 * How many of something fit in one statement: at most `preferred` (batches stay of a size a database handles
 * quickly), and never more bound values than the database allows (D1: 100), given how many each one binds.
 */
export function perStatement(preferred: number, maxBoundParameters: number, valuesEach: number, valuesBesides = 0): number {
  return Math.max(1, Math.min(preferred, Math.floor((maxBoundParameters - valuesBesides) / valuesEach)));
}
