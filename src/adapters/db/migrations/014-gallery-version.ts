import type { Kysely } from 'kysely';

/**
 * A version per user's gallery, raised in the same transaction as every write to that user's images (insert,
 * soft delete, discard): a page read at version v is still exact while the version is v, whichever process
 * wrote. Read beside `live_images`, so a repeated list costs one primary-key lookup (see image-page-cache.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('image_counters').addColumn('version', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('image_counters').dropColumn('version').execute();
}
