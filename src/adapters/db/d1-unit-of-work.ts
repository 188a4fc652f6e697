import type { UnitOfWork } from '../../ports/db/unit-of-work.js';
import { statementOf } from './unit-of-work.js';

/** The part of a Worker's D1 binding a unit of work uses (`D1Database` of @cloudflare/workers-types). */
export interface D1Binding {
  prepare(sql: string): D1BoundStatement;
  batch(statements: D1BoundStatement[]): Promise<{ meta: { changes?: number } }[]>;
}

export interface D1BoundStatement {
  bind(...values: unknown[]): D1BoundStatement;
}

/**
 * D1 has no interactive transactions: `batch()` runs a list of statements in order as one transaction, rolled back
 * whole if one fails. That is exactly the unit of work's promise, so the writes go to it as they were compiled.
 */
export function createD1UnitOfWork(d1: D1Binding): UnitOfWork {
  return {
    async commit(writes) {
      const statements = writes.map((write) => {
        const { sql, parameters } = statementOf(write);
        return d1.prepare(sql).bind(...parameters);
      });
      if (statements.length === 0) return [];
      const results = await d1.batch(statements);
      return results.map((result) => ({ changed: result.meta.changes ?? 0 }));
    },
  };
}
