import type { Kysely } from 'kysely';

/**
 * Whether an image has its WebP thumbnails beside it (0 or 1, as `is_deleted`). Their keys follow from the image's
 * id, so this is all a record needs; images stored before this migration have none and keep 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('has_thumbnails', 'integer', (col) => col.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('has_thumbnails').execute();
}
