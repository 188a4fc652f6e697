import type { Kysely } from 'kysely';
import type { CollectionRepository, CollectionWithCount } from '../../ports/database.js';
import { toImageRow, toNumber } from './rows.js';
import type { UnitOfWork } from '../../ports/db/unit-of-work.js';
import { writeOf } from './unit-of-work.js';
import type { DatabaseSchema } from './schema.js';

export function createCollectionRepository(db: Kysely<DatabaseSchema>, unit: UnitOfWork): CollectionRepository {
  const withCount = (userId: string) =>
    db
      .selectFrom('collections as c')
      .where('c.user_id', '=', userId)
      .selectAll('c')
      .select((eb) =>
        eb
          .selectFrom('collection_images as ci')
          .innerJoin('images as i', 'i.id', 'ci.image_id')
          .whereRef('ci.collection_id', '=', 'c.id')
          .where('i.is_deleted', '=', 0)
          .select((inner) => inner.fn.countAll().as('n'))
          .as('image_count'),
      )
      // The cover: the live image added last.
      .select((eb) =>
        eb
          .selectFrom('collection_images as ci')
          .innerJoin('images as i', 'i.id', 'ci.image_id')
          .whereRef('ci.collection_id', '=', 'c.id')
          .where('i.is_deleted', '=', 0)
          .select('i.r2_key')
          .orderBy('ci.added_at', 'desc')
          .orderBy('i.id', 'desc')
          .limit(1)
          .as('cover_key'),
      );
  const toCollection = (
    row: { image_count: unknown; cover_key: string | null } & Omit<CollectionWithCount, 'image_count' | 'cover_key'>,
  ): CollectionWithCount => ({
    ...row,
    image_count: toNumber(row.image_count),
    cover_key: row.cover_key ?? null,
  });

  return {
    async insert(row) {
      await db.insertInto('collections').values(row).execute();
    },
    async find(userId, id) {
      const row = await withCount(userId).where('c.id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toCollection(row);
    },
    async list(userId, page) {
      const [rows, count] = await Promise.all([
        withCount(userId).orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(page.limit).offset(page.offset).execute(),
        db
          .selectFrom('collections')
          .where('user_id', '=', userId)
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirst(),
      ]);
      return { items: rows.map(toCollection), total: toNumber(count?.total) };
    },
    async delete(userId, id) {
      // Its images go first, and only if the user owns it: the guard is in each statement, not a read before them.
      const owned = db.selectFrom('collections').select('id').where('id', '=', id).where('user_id', '=', userId);
      const [, collection] = await unit.commit([
        writeOf('collections.delete: its images', db.deleteFrom('collection_images').where('collection_id', 'in', owned)),
        writeOf('collections.delete', db.deleteFrom('collections').where('id', '=', id).where('user_id', '=', userId)),
      ]);
      return (collection?.changed ?? 0) > 0;
    },
    async addImage(collectionId, imageId, at) {
      const result = await db
        .insertInto('collection_images')
        .values({ collection_id: collectionId, image_id: imageId, added_at: at })
        .onConflict((oc) => oc.columns(['collection_id', 'image_id']).doNothing())
        .executeTakeFirst();
      return toNumber(result.numInsertedOrUpdatedRows) > 0;
    },
    async removeImage(collectionId, imageId) {
      const result = await db.deleteFrom('collection_images').where('collection_id', '=', collectionId).where('image_id', '=', imageId).executeTakeFirst();
      return toNumber(result.numDeletedRows) > 0;
    },
    async listImages(userId, collectionId, page) {
      const members = db
        .selectFrom('collection_images as ci')
        .innerJoin('images as i', 'i.id', 'ci.image_id')
        .where('ci.collection_id', '=', collectionId)
        .where('i.user_id', '=', userId)
        .where('i.is_deleted', '=', 0);
      const [rows, count] = await Promise.all([
        members.selectAll('i').orderBy('ci.added_at', 'desc').orderBy('i.id', 'desc').limit(page.limit).offset(page.offset).execute(),
        members.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
      ]);
      return { items: rows.map(toImageRow), total: toNumber(count?.total) };
    },
  };
}
