import type { Kysely } from 'kysely';

/**
 * Leases on running jobs, so several worker processes can share the queue: a claimed job names its claim
 * (`locked_by`) and is the claimer's until `locked_until` (ISO text like every timestamp here), which the
 * claimer keeps pushing forward while it runs; a job whose lease ran out belongs to its worker no more.
 * One column per statement: SQLite's ALTER TABLE adds one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('locked_by', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('locked_until', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('locked_until').execute();
  await db.schema.alterTable('jobs').dropColumn('locked_by').execute();
}
