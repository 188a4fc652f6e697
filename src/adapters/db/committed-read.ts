/**
 * A read answered at once, without Kysely's queue and its promises, from what is committed; `undefined` when it
 * cannot be answered that way now (SQLite inside a transaction), and the caller reads through Kysely instead.
 * Only an in-process database has one: SQLite's connection answers synchronously.
 */
export type CommittedRead = (sql: string, parameters: readonly unknown[]) => Record<string, unknown>[] | undefined;
