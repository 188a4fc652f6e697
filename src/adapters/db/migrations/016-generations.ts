import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Database } from '../../../ports/database.js';

/**
 * Every generation is a durable job (issue 38): the request as accepted, its state, and the image id it owns from
 * acceptance on, so a run after a crash or a lost write overwrites its own object and records it once.
 * `error` is the JSON of the answer a waiting caller gets (`{ status, error, code, details }`).
 *
 * A generation may have its own webhook (`webhook_url`, `webhook_events` as a JSON array) and a `deadline_at` after
 * which, still queued, it is cancelled. Its events go through the batches' outbox, whose rows now belong to a batch
 * or to a generation (exactly one of the two).
 */
export function generations(dialect: Database['dialect']) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('generations')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('key_id', 'text')
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('model', 'text', (col) => col.notNull())
        .addColumn('prompt', 'text', (col) => col.notNull())
        .addColumn('request', 'text', (col) => col.notNull())
        .addColumn('image_id', 'text', (col) => col.notNull().unique())
        .addColumn('error', 'text')
        .addColumn('progress', 'double precision')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('cancel_requested_at', 'text')
        .addColumn('webhook_url', 'text')
        .addColumn('webhook_events', 'text')
        .addColumn('deadline_at', 'text')
        .execute();
      await db.schema.createIndex('generations_user_created').on('generations').columns(['user_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('generations_status_created').on('generations').columns(['status', 'created_at']).execute();

      if (dialect === 'postgres') {
        await db.schema.alterTable('webhook_deliveries').alterColumn('batch_id', (col) => col.dropNotNull()).execute();
        await db.schema.alterTable('webhook_deliveries').addColumn('generation_id', 'text', (col) => col.references('generations.id')).execute();
        await db.schema.alterTable('webhook_deliveries').addCheckConstraint('webhook_deliveries_one_owner', OWNER_CHECK).execute();
      } else {
        await rebuildOutboxOnSqlite(db);
      }
      await db.schema.createIndex('webhook_deliveries_generation').on('webhook_deliveries').column('generation_id').execute();
    },

    async down(db: Kysely<unknown>): Promise<void> {
      // A generation's deliveries have no place in the batch-only outbox: they go with the generations.
      await sql`delete from webhook_attempts where delivery_id in (select id from webhook_deliveries where generation_id is not null)`.execute(db);
      await sql`delete from webhook_deliveries where generation_id is not null`.execute(db);
      await db.schema.dropIndex('webhook_deliveries_generation').execute();
      if (dialect === 'postgres') {
        await db.schema.alterTable('webhook_deliveries').dropConstraint('webhook_deliveries_one_owner').execute();
        await db.schema.alterTable('webhook_deliveries').dropColumn('generation_id').execute();
        await db.schema.alterTable('webhook_deliveries').alterColumn('batch_id', (col) => col.setNotNull()).execute();
      }
      // SQLite keeps the rebuilt outbox, its generation_id all null now: rebuilding it back would gain nothing.
      await db.schema.dropTable('generations').execute();
    },
  };
}

const OWNER_CHECK = sql`(batch_id is null) <> (generation_id is null)`;

const OUTBOX_COLUMNS = ['id', 'batch_id', 'event', 'url', 'payload', 'status', 'attempts', 'next_attempt_at', 'created_at', 'updated_at'];
const ATTEMPT_COLUMNS = ['delivery_id', 'attempt', 'at', 'status_code', 'error', 'duration_ms'];

const outboxColumns = <N extends string>(table: CreateTableBuilder<N>) =>
  table
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('batch_id', 'text', (col) => col.references('batches.id'))
    .addColumn('generation_id', 'text', (col) => col.references('generations.id'))
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addCheckConstraint('webhook_deliveries_one_owner', OWNER_CHECK);

/**
 * SQLite cannot drop a NOT NULL with ALTER TABLE: the outbox is built again under a new name, filled, and renamed.
 * Its attempts reference it, so they are moved too, children first: with foreign keys on (SQLite here, always on
 * D1), dropping a parent that rows still reference fails, and no PRAGMA can turn that off inside D1's batch. Renaming
 * the new outbox rewrites the new attempts' reference to it (SQLite's rename, legacy_alter_table off).
 */
async function rebuildOutboxOnSqlite(db: Kysely<unknown>): Promise<void> {
  await outboxColumns(db.schema.createTable('webhook_deliveries_v2')).execute();
  await sql`insert into webhook_deliveries_v2 (${sql.join(OUTBOX_COLUMNS.map((c) => sql.ref(c)))}) select ${sql.join(OUTBOX_COLUMNS.map((c) => sql.ref(c)))} from webhook_deliveries`.execute(db);
  await db.schema
    .createTable('webhook_attempts_v2')
    .addColumn('delivery_id', 'text', (col) => col.notNull().references('webhook_deliveries_v2.id'))
    .addColumn('attempt', 'integer', (col) => col.notNull())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
    .execute();
  await sql`insert into webhook_attempts_v2 (${sql.join(ATTEMPT_COLUMNS.map((c) => sql.ref(c)))}) select ${sql.join(ATTEMPT_COLUMNS.map((c) => sql.ref(c)))} from webhook_attempts`.execute(db);
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.alterTable('webhook_deliveries_v2').renameTo('webhook_deliveries').execute();
  await db.schema.alterTable('webhook_attempts_v2').renameTo('webhook_attempts').execute();
  await db.schema.createIndex('webhook_deliveries_batch').on('webhook_deliveries').column('batch_id').execute();
}
