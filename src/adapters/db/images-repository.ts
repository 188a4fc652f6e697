import type { Kysely } from 'kysely';
import type { ImageRepository } from '../../ports/database.js';
import { fromImageRow, toImageRow, toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';

export function createImageRepository(db: Kysely<DatabaseSchema>): ImageRepository {
  const live = (userId: string) =>
    db.selectFrom('images').where('user_id', '=', userId).where('is_deleted', '=', 0);

  return {
    async insert(row) {
      await db.insertInto('images').values(fromImageRow(row)).execute();
    },
    async findLive(userId, id) {
      const row = await live(userId).selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toImageRow(row);
    },
    async listLive(userId, page) {
      const [rows, count] = await Promise.all([
        live(userId).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        live(userId).select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
      ]);
      return { items: rows.map(toImageRow), total: toNumber(count?.total) };
    },
    async softDelete(userId, id, at) {
      const result = await db
        .updateTable('images')
        .set({ is_deleted: 1, deleted_at: at })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('is_deleted', '=', 0)
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows) > 0;
    },
  };
}
