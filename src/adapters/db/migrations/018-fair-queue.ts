import type { Kysely } from 'kysely';

/**
 * Fair queueing (issue 38): one key's hundred queued prompts cannot hold back another key's one.
 *
 * - `generations.queue_rank`: the round a queued generation runs in (see the generations repository's `insert`); the
 *   queue serves lower ranks first, the oldest first among equal ones. Rows from before get 0: they keep their FIFO
 *   order among themselves, ahead of anything queued from now on.
 * - `jobs.priority`: the order claims take (lower first, then due time, then age); 0 for every job that has none.
 *
 * Single generations and batches' prompts run in two job queues, each ranked on its own (batch_id null or not).
 *
 * Indexes: the claim walks (queue, status, priority, run_at, created_at) in order and stops at its first due job, with
 * no sort however long the backlog (it replaces (queue, status, run_at), whose other readers count every row of a
 * queue anyway); a single generation's rank reads the round from (status, batch_id, queue_rank, ...) and its lane's
 * last rank from (status, user_id, key_id, batch_id, queue_rank), each one index seek (batch_id is null); its
 * queue_position counts along the first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('priority', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['queue', 'status', 'priority', 'run_at', 'created_at']).execute();
  await db.schema.dropIndex('jobs_queue_status_run_at').execute();

  await db.schema.alterTable('generations').addColumn('queue_rank', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('generations_queue').on('generations').columns(['status', 'batch_id', 'queue_rank', 'created_at', 'id']).execute();
  await db.schema.createIndex('generations_lane').on('generations').columns(['status', 'user_id', 'key_id', 'batch_id', 'queue_rank']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('generations_lane').execute();
  await db.schema.dropIndex('generations_queue').execute();
  await db.schema.alterTable('generations').dropColumn('queue_rank').execute();

  await db.schema.createIndex('jobs_queue_status_run_at').on('jobs').columns(['queue', 'status', 'run_at']).execute();
  await db.schema.dropIndex('jobs_claim').execute();
  await db.schema.alterTable('jobs').dropColumn('priority').execute();
}
