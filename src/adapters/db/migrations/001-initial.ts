import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('prompt', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('r2_key', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('cost', 'double precision', (col) => col.notNull())
    .addColumn('is_deleted', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('deleted_at', 'text')
    .addColumn('template_id', 'text')
    .addColumn('metadata', 'text')
    .addColumn('parameters', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('images_user_live_created').on('images').columns(['user_id', 'is_deleted', 'created_at']).execute();
  await db.schema.createIndex('images_user_created').on('images').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('collections_user_created').on('collections').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('collection_images')
    .addColumn('collection_id', 'text', (col) => col.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('image_id', 'text', (col) => col.notNull().references('images.id'))
    .addColumn('added_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('collection_images_pk', ['collection_id', 'image_id'])
    .execute();
  await db.schema.createIndex('collection_images_image').on('collection_images').column('image_id').execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('model', 'text', (col) => col.notNull())
    .addColumn('default_prompt', 'text', (col) => col.notNull())
    .addColumn('parameters', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('templates_user_created').on('templates').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['collection_images', 'collections', 'templates', 'images']) {
    await db.schema.dropTable(table).execute();
  }
}
