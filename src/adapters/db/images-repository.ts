import { sql, type Kysely } from 'kysely';
import type { ImageFilter, ImageRepository } from '../../ports/database.js';
import { fromImageRow, toImageRow, toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';

/** Keys per query: well under SQLite's and PostgreSQL's limits on bound parameters. */
const KEYS_PER_QUERY = 500;

export function createImageRepository(db: Kysely<DatabaseSchema>): ImageRepository {
  const live = (userId: string) =>
    db.selectFrom('images').where('user_id', '=', userId).where('is_deleted', '=', 0);

  const matching = (userId: string, filter: ImageFilter) => {
    let scope = live(userId);
    if (filter.text !== undefined) {
      // lower() on both sides folds case the same way on every dialect; ESCAPE is spelled out because
      // SQLite has no default escape character and PostgreSQL's default is the same backslash.
      scope = scope.where(sql<boolean>`lower(prompt) like lower(${`%${escapeLike(filter.text)}%`}) escape '\\'`);
    }
    if (filter.model !== undefined) scope = scope.where('model', '=', filter.model);
    if (filter.from !== undefined) scope = scope.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) scope = scope.where('created_at', '<', filter.to);
    return scope;
  };

  return {
    async insert(row) {
      await db.insertInto('images').values(fromImageRow(row)).execute();
    },
    async findLive(userId, id) {
      const row = await live(userId).selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toImageRow(row);
    },
    async listLive(userId, page, filter = {}) {
      const [rows, count] = await Promise.all([
        matching(userId, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        matching(userId, filter).select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
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
    async existingKeys(keys) {
      const found = new Set<string>();
      for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
        const chunk = keys.slice(start, start + KEYS_PER_QUERY);
        const rows = await db.selectFrom('images').select('r2_key').distinct().where('r2_key', 'in', chunk).execute();
        for (const row of rows) found.add(row.r2_key);
      }
      return found;
    },
  };
}

/** The text as a LIKE pattern that matches it literally: the escape character and both wildcards are escaped. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
