import type { Kysely } from 'kysely';

/** The start-up blob reconciler asks which stored keys have a record; without this it scans every image. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('images_r2_key').on('images').column('r2_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('images_r2_key').execute();
}
