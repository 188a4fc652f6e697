import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('template_id', 'text')
    .addColumn('parameters', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('total_prompts', 'integer', (col) => col.notNull())
    .addColumn('completed_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('batches_user_created').on('batches').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('batch_items')
    .addColumn('batch_id', 'text', (col) => col.notNull().references('batches.id'))
    .addColumn('idx', 'integer', (col) => col.notNull())
    .addColumn('prompt', 'text', (col) => col.notNull())
    .addColumn('image_id', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'idx'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('batch_id', 'text', (col) => col.notNull().references('batches.id'))
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_batch').on('webhook_deliveries').column('batch_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (col) => col.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('queue', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('run_at', 'text', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('jobs_queue_status_run_at').on('jobs').columns(['queue', 'status', 'run_at']).execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['settings', 'jobs', 'webhook_attempts', 'webhook_deliveries', 'batch_items', 'batches']) {
    await db.schema.dropTable(table).execute();
  }
}
