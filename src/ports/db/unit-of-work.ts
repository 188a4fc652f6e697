/**
 * One statement of a unit of work. Repositories make them (each knows its own tables); the domain only passes them
 * on, so it never sees SQL. `label` names it in logs and errors: `collections.delete`.
 */
export interface Write {
  readonly label: string;
}

export interface WriteOutcome {
  /** Rows the statement inserted, updated or deleted. */
  readonly changed: number;
}

/**
 * Writes that land together or not at all, run in the order given: a transaction on SQLite and PostgreSQL, one
 * `batch()` on D1. No statement reads another's result in between (D1 has no interactive transactions), so each
 * says in its own WHERE when it applies: a guard on the state the ones before it leave, or a unique key that makes
 * it a no-op the second time. A rule that spans aggregates lives in the verb that puts their writes together.
 */
export interface UnitOfWork {
  /** Resolves with one outcome per write, in order; rejects, with nothing written, if any of them fails. */
  commit(writes: readonly Write[]): Promise<WriteOutcome[]>;
}
