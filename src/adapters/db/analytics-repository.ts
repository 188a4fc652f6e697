import { sql, type Kysely } from 'kysely';
import type { AnalyticsRepository, UsageBucket } from '../../ports/database.js';
import { toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';

export function createAnalyticsRepository(db: Kysely<DatabaseSchema>): AnalyticsRepository {
  return {
    async usage(userId, range) {
      let scope = db.selectFrom('images').where('user_id', '=', userId);
      if (range.from !== undefined) scope = scope.where('created_at', '>=', range.from);
      if (range.to !== undefined) scope = scope.where('created_at', '<', range.to);

      // created_at is ISO 8601 text, so its first ten characters are the UTC day on every dialect.
      const day = sql<string>`substr(created_at, 1, 10)`;
      const measures = [
        sql<number>`count(*)`.as('images'),
        sql<number>`coalesce(sum(is_deleted), 0)`.as('deleted_images'),
        sql<number>`coalesce(sum(cost), 0)`.as('cost'),
      ] as const;

      const [totals, byModel, byDay, byDayAndModel] = await Promise.all([
        scope.select(measures).executeTakeFirst(),
        scope.select([sql<string>`model`.as('key'), ...measures]).groupBy('model').execute(),
        scope.select([day.as('key'), ...measures]).groupBy(day).orderBy(day).execute(),
        scope.select([day.as('day'), 'model', ...measures]).groupBy([day, 'model']).execute(),
      ]);
      const bucket = (row: { key: string; images: unknown; deleted_images: unknown; cost: unknown }): UsageBucket => ({
        key: row.key,
        images: toNumber(row.images),
        deleted_images: toNumber(row.deleted_images),
        cost: toNumber(row.cost),
      });
      return {
        images: toNumber(totals?.images),
        deleted_images: toNumber(totals?.deleted_images),
        cost: toNumber(totals?.cost),
        // Sorted here, not in SQL: PostgreSQL orders text by the database's collation (en_US puts `@cf/...`
        // after `b...`, ignoring punctuation), SQLite by code point; this is the same on both.
        by_model: byModel.map(bucket).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
        by_day: byDay.map(bucket),
        // Sorted here rather than in SQL: PostgreSQL orders text by its collation, SQLite by code point.
        by_day_and_model: byDayAndModel
          .map((row) => ({ day: row.day, model: row.model, images: toNumber(row.images), deleted_images: toNumber(row.deleted_images), cost: toNumber(row.cost) }))
          .sort((a, b) => codePointOrder(a.day, b.day) || codePointOrder(a.model, b.model)),
      };
    },
  };
}

const codePointOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
