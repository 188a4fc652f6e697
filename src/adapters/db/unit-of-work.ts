import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { UnitOfWork, Write, WriteOutcome } from '../../ports/db/unit-of-work.js';
import type { DatabaseSchema } from './schema.js';

/** The statement behind each write this adapter made; a write from anywhere else has none and is refused. */
const statements = new WeakMap<Write, CompiledQuery>();

/** A write of `query`, compiled now: what `commit` later runs exactly as it is. */
export function writeOf(label: string, query: Compilable): Write {
  const write: Write = Object.freeze({ label });
  statements.set(write, query.compile());
  return write;
}

/** The compiled statement of a write this adapter made, for a unit of work that runs them itself (D1's batch). */
export function statementOf(write: Write): CompiledQuery {
  const statement = statements.get(write);
  if (statement === undefined) throw new Error(`${write.label} was not made by a repository of this database`);
  return statement;
}

/** SQLite and PostgreSQL: the writes in one Kysely transaction, one after the other. */
export function createKyselyUnitOfWork(db: Kysely<DatabaseSchema>): UnitOfWork {
  return {
    async commit(writes) {
      const queries = writes.map(statementOf);
      if (queries.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        const outcomes: WriteOutcome[] = [];
        for (const query of queries) {
          const result = await trx.executeQuery(query);
          outcomes.push({ changed: Number(result.numAffectedRows ?? 0n) });
        }
        return outcomes;
      });
    },
  };
}
