import { sql, type Kysely } from 'kysely';

/**
 * The charge ledger: one row per provider call that may have cost money, reserved before the call and settled
 * after it. A key's spend is the sum of its charges (reservations in flight included), so budgets hold across
 * processes. Images made by a key before the ledger are carried over as settled charges, so no key's spend
 * changes on upgrade. Portable types and SQL only: the same on SQLite, PostgreSQL and D1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('charges')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('key_id', 'text')
    .addColumn('image_id', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('provider_job_id', 'text')
    .addColumn('journal', 'text')
    .addColumn('estimated_usd', 'double precision', (col) => col.notNull())
    .addColumn('cost_usd', 'double precision', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  // A key's spend in a window (budgets), a user's charges in a range (reports), the charges of an image (resume).
  await db.schema.createIndex('charges_key_created').on('charges').columns(['key_id', 'created_at']).execute();
  await db.schema.createIndex('charges_user_created').on('charges').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('charges_image').on('charges').columns(['image_id']).execute();
  await sql`
    insert into charges (id, user_id, key_id, image_id, model, provider, provider_job_id, journal, estimated_usd, cost_usd, outcome, error, created_at, settled_at)
    select 'chg_' || id, user_id, key_id, id, model, 'unknown', null, null, cost, cost, 'succeeded', null, created_at, created_at
    from images where key_id is not null and cost > 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('charges').execute();
}
