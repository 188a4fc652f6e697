import type { Kysely } from 'kysely';

/**
 * Images in: uploads beside generated images (`kind`), and lineage. `source_image_ids` (JSON text) is what a
 * record shows; `image_sources` holds the same edges one per row, indexed by source, so "what was made from this
 * image" is an index lookup rather than a scan of every record's JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('kind', 'text', (col) => col.notNull().defaultTo('generated')).execute();
  await db.schema.alterTable('images').addColumn('source_image_ids', 'text').execute();
  await db.schema
    .createTable('image_sources')
    .addColumn('image_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('source_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('image_sources_pk', ['image_id', 'position'])
    .execute();
  await db.schema.createIndex('image_sources_by_source').on('image_sources').columns(['user_id', 'source_id']).execute();
}
