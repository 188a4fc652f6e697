import type { Kysely } from 'kysely';

/**
 * A batch is a group of generations (issue 38): each prompt is a generation row, run by the same code as a single
 * generation, with the batch's item kept as the batch's view of it. `generations.batch_id`/`batch_idx` name the item
 * a generation settles (in the same unit of work as the generation); `batch_items.generation_id` names the
 * generation that runs an item (null for an item of a batch accepted before this version, until its job runs).
 *
 * A run holds a claim on its generation (`run_token`, `claimed_until`, renewed while it runs): a second run of the same
 * job (its queue lease lapsed while the first still worked) starts nothing while the claim holds, so it never finds the
 * first run's charge open and fails a generation its provider is still making.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('generations').addColumn('batch_idx', 'integer').execute();
  await db.schema.alterTable('batch_items').addColumn('generation_id', 'text').execute();
  await db.schema.alterTable('generations').addColumn('run_token', 'text').execute();
  await db.schema.alterTable('generations').addColumn('claimed_until', 'text').execute();
  // One generation per prompt: a job that creates the generation of an older batch's prompt twice creates one.
  await db.schema.createIndex('generations_batch_item').on('generations').columns(['batch_id', 'batch_idx']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('generations_batch_item').execute();
  await db.schema.alterTable('generations').dropColumn('claimed_until').execute();
  await db.schema.alterTable('generations').dropColumn('run_token').execute();
  await db.schema.alterTable('batch_items').dropColumn('generation_id').execute();
  await db.schema.alterTable('generations').dropColumn('batch_idx').execute();
  await db.schema.alterTable('generations').dropColumn('batch_id').execute();
}
