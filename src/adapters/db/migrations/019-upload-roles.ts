import { sql, type Kysely } from 'kysely';

/**
 * The gallery shows what a user made (issue 35): the files an edit or a variation sent, and masks, are stored as
 * uploads but kept out of the default list.
 *
 * - `images.upload_role`: `input` (an image an edit or variation sent with its request) or `mask`; null for a file
 *   uploaded on purpose and for every generated image. A list without `kind` shows the rows where it is null, and
 *   `image_counters.live_images` counts exactly those from now on: every row stored before has null, so the counters
 *   need no recount.
 * - `images.content_hash`: SHA-256 (hex) of an upload's bytes as they were sent (`kept:` before it when they were
 *   stored with UPLOAD_METADATA=keep), so the same file sent again by the same user is the image already stored.
 *   Null for generated images and for uploads from before: those are never matched. Looked up by (user_id,
 *   content_hash), one seek in an index of uploads only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('upload_role', 'text').execute();
  await db.schema.alterTable('images').addColumn('content_hash', 'text').execute();
  // Partial: generated images (most rows) have no hash and cost this index nothing; `content_hash = ?` implies the
  // condition, so both SQLite and PostgreSQL use it for the lookup.
  await db.schema
    .createIndex('images_user_content')
    .on('images')
    .columns(['user_id', 'content_hash'])
    .where(sql.ref('content_hash'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('images_user_content').execute();
  await db.schema.alterTable('images').dropColumn('content_hash').execute();
  await db.schema.alterTable('images').dropColumn('upload_role').execute();
}
