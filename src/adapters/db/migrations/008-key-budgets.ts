import type { Kysely } from 'kysely';

/**
 * Spend limits per API key: optional daily and monthly budgets (USD) on the key, and the key that made each
 * image and batch, so a key's spend per UTC day and month is a sum over its own images through
 * (key_id, created_at). Existing images have no key (null): they count for no key's budget.
 * One column per statement: SQLite's ALTER TABLE adds one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('daily_budget_usd', 'double precision').execute();
  await db.schema.alterTable('api_keys').addColumn('monthly_budget_usd', 'double precision').execute();
  await db.schema.alterTable('images').addColumn('key_id', 'text').execute();
  await db.schema.alterTable('batches').addColumn('key_id', 'text').execute();
  await db.schema.createIndex('images_key_created').on('images').columns(['key_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('images_key_created').execute();
  await db.schema.alterTable('batches').dropColumn('key_id').execute();
  await db.schema.alterTable('images').dropColumn('key_id').execute();
  await db.schema.alterTable('api_keys').dropColumn('monthly_budget_usd').execute();
  await db.schema.alterTable('api_keys').dropColumn('daily_budget_usd').execute();
}
