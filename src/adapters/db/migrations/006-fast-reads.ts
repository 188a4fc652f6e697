import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../ports/database.js';

/**
 * What keeps reads flat as a gallery grows to millions of images:
 * - one index that serves a user's live images newest first, `created_at` then `id`, without a sort
 *   (the keyset cursor walks it);
 * - a live-image counter per user, so an unfiltered list's `total` is one row, not COUNT(*);
 * - daily per-model rollups, so analytics adds up days instead of scanning images;
 * - a prompt search index: FTS5 with the trigram tokenizer on SQLite, pg_trgm on PostgreSQL (both find
 *   any substring of three characters or more, case-insensitively).
 * Counters and rollups are filled from the existing images here and kept in the same transaction as every
 * image insert and soft delete from then on.
 */
export function fastReads(dialect: Database['dialect']) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('images_user_live_created_id').on('images').columns(['user_id', 'is_deleted', 'created_at', 'id']).execute();
      await db.schema.dropIndex('images_user_live_created').execute();

      await db.schema
        .createTable('image_counters')
        .addColumn('user_id', 'text', (col) => col.primaryKey())
        .addColumn('live_images', 'integer', (col) => col.notNull())
        .execute();
      await sql`insert into image_counters (user_id, live_images) select user_id, count(*) from images where is_deleted = 0 group by user_id`.execute(db);

      await db.schema
        .createTable('usage_daily')
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('model', 'text', (col) => col.notNull())
        .addColumn('images', 'integer', (col) => col.notNull())
        .addColumn('deleted_images', 'integer', (col) => col.notNull())
        .addColumn('cost', 'double precision', (col) => col.notNull())
        .addPrimaryKeyConstraint('usage_daily_pk', ['user_id', 'day', 'model'])
        .execute();
      await sql`insert into usage_daily (user_id, day, model, images, deleted_images, cost)
        select user_id, substr(created_at, 1, 10), model, count(*), sum(is_deleted), sum(cost) from images
        group by user_id, substr(created_at, 1, 10), model`.execute(db);

      if (dialect === 'sqlite') await sqliteSearch(db);
      else await postgresSearch(db);
    },
  };
}

async function sqliteSearch(db: Kysely<unknown>): Promise<void> {
  // An external-content FTS5 table over images.prompt, kept in step by triggers (prompts never change,
  // but a row can be deleted by hand).
  await sql`create virtual table images_search using fts5(prompt, content='images', content_rowid='rowid', tokenize='trigram case_sensitive 0')`.execute(db);
  await sql`create trigger images_search_insert after insert on images begin
    insert into images_search(rowid, prompt) values (new.rowid, new.prompt); end`.execute(db);
  await sql`create trigger images_search_delete after delete on images begin
    insert into images_search(images_search, rowid, prompt) values ('delete', old.rowid, old.prompt); end`.execute(db);
  await sql`create trigger images_search_update after update of prompt on images begin
    insert into images_search(images_search, rowid, prompt) values ('delete', old.rowid, old.prompt);
    insert into images_search(rowid, prompt) values (new.rowid, new.prompt); end`.execute(db);
  await sql`insert into images_search(images_search) values ('rebuild')`.execute(db);
}

async function postgresSearch(db: Kysely<unknown>): Promise<void> {
  // pg_trgm is a trusted extension (any database owner may create it). It belongs to the database, not to
  // imagegate's schema, so it goes to `public` and is found wherever it already is; where a managed server
  // refuses it, search still works by scanning the user's images, so its absence must not stop the migration.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  const found = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const schema = found.rows[0]?.schema;
  if (schema === undefined) return;
  await sql`create index images_prompt_trgm on images using gin (lower(prompt) ${sql.id(schema, 'gin_trgm_ops')})`.execute(db);
}
