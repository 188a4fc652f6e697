import { sql, type Kysely } from 'kysely';
import type { AnalyticsRepository, DayModelBucket, TimeRange, UsageBucket } from '../../ports/database.js';
import { dayOf } from './image-writes.js';
import { toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';

const DAY_MS = 86_400_000;

/** Midnight UTC at or after the instant (the instant itself when it is midnight). */
const ceilDay = (iso: string): string => {
  const ms = Date.parse(iso);
  return new Date(Math.ceil(ms / DAY_MS) * DAY_MS).toISOString();
};
/** Midnight UTC at or before the instant. */
const floorDay = (iso: string): string => new Date(Math.floor(Date.parse(iso) / DAY_MS) * DAY_MS).toISOString();

/**
 * Usage from the daily per-model rollups, so the cost does not grow with the number of images: whole days
 * come from `usage_daily`; a range that starts or ends inside a day counts that part of it from the images
 * themselves (one user, at most two partial days, through the (user_id, created_at) index).
 */
export function createAnalyticsRepository(db: Kysely<DatabaseSchema>): AnalyticsRepository {
  const rollups = async (userId: string, fromDay: string | undefined, toDay: string | undefined): Promise<DayModelBucket[]> => {
    let query = db.selectFrom('usage_daily').select(['day', 'model', 'images', 'deleted_images', 'cost']).where('user_id', '=', userId);
    if (fromDay !== undefined) query = query.where('day', '>=', fromDay);
    if (toDay !== undefined) query = query.where('day', '<', toDay);
    return (await query.execute()).map((row) => ({
      day: row.day,
      model: row.model,
      images: toNumber(row.images),
      deleted_images: toNumber(row.deleted_images),
      cost: toNumber(row.cost),
    }));
  };

  const scanned = async (userId: string, from: string | undefined, to: string | undefined, keyId?: string): Promise<DayModelBucket[]> => {
    const day = sql<string>`substr(created_at, 1, 10)`;
    let query = db
      .selectFrom('images')
      .select([
        day.as('day'),
        'model',
        sql<number>`count(*)`.as('images'),
        sql<number>`coalesce(sum(is_deleted), 0)`.as('deleted_images'),
        sql<number>`coalesce(sum(cost), 0)`.as('cost'),
      ])
      .where('user_id', '=', userId);
    if (from !== undefined) query = query.where('created_at', '>=', from);
    if (to !== undefined) query = query.where('created_at', '<', to);
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    const rows = await query.groupBy([day, 'model']).execute();
    return rows.map((row) => ({
      day: row.day,
      model: row.model,
      images: toNumber(row.images),
      deleted_images: toNumber(row.deleted_images),
      cost: toNumber(row.cost),
    }));
  };

  return {
    async usage(userId, range, keyId) {
      // The rollups are per user, not per key: one key's images are read through (key_id, created_at).
      if (keyId !== undefined) return summarize(await scanned(userId, range.from, range.to, keyId));
      return summarize(
        await collect(range, { rollups: (fromDay, toDay) => rollups(userId, fromDay, toDay), scanned: (from, to) => scanned(userId, from, to) }),
      );
    },
  };
}

interface Sources {
  rollups(fromDay: string | undefined, toDay: string | undefined): Promise<DayModelBucket[]>;
  scanned(from: string, to: string): Promise<DayModelBucket[]>;
}

/** Splits the range into whole days (rollups) and the partial days at its edges (scanned). */
async function collect(range: TimeRange, sources: Sources): Promise<DayModelBucket[]> {
  const { from, to } = range;
  const wholeFrom = from === undefined ? undefined : ceilDay(from);
  const wholeTo = to === undefined ? undefined : floorDay(to);
  if (wholeFrom !== undefined && wholeTo !== undefined && wholeFrom >= wholeTo) {
    // No whole day inside: the range lies within one or two days, counted from the images.
    return from !== undefined && to !== undefined ? sources.scanned(from, to) : [];
  }
  const parts = [sources.rollups(wholeFrom === undefined ? undefined : dayOf(wholeFrom), wholeTo === undefined ? undefined : dayOf(wholeTo))];
  if (from !== undefined && wholeFrom !== undefined && from < wholeFrom) parts.push(sources.scanned(from, wholeFrom));
  if (to !== undefined && wholeTo !== undefined && wholeTo < to) parts.push(sources.scanned(wholeTo, to));
  return (await Promise.all(parts)).flat();
}

function summarize(buckets: readonly DayModelBucket[]) {
  const byDayAndModel = new Map<string, DayModelBucket>();
  for (const bucket of buckets) {
    const key = `${bucket.day}\u0000${bucket.model}`;
    const seen = byDayAndModel.get(key);
    byDayAndModel.set(key, seen === undefined ? { ...bucket } : add(seen, bucket));
  }
  const cells = [...byDayAndModel.values()].filter((cell) => cell.images > 0);
  const group = (keyOf: (cell: DayModelBucket) => string): UsageBucket[] => {
    const groups = new Map<string, UsageBucket>();
    for (const cell of cells) {
      const key = keyOf(cell);
      const seen = groups.get(key) ?? { key, images: 0, deleted_images: 0, cost: 0 };
      groups.set(key, { key, images: seen.images + cell.images, deleted_images: seen.deleted_images + cell.deleted_images, cost: seen.cost + cell.cost });
    }
    // Sorted here, not in SQL: PostgreSQL orders text by the database's collation, SQLite by code point.
    return [...groups.values()].sort((a, b) => codePointOrder(a.key, b.key));
  };
  const byModel = group((cell) => cell.model);
  return {
    images: sum(byModel, 'images'),
    deleted_images: sum(byModel, 'deleted_images'),
    cost: sum(byModel, 'cost'),
    by_model: byModel,
    by_day: group((cell) => cell.day),
    by_day_and_model: cells.sort((a, b) => codePointOrder(a.day, b.day) || codePointOrder(a.model, b.model)),
  };
}

const add = (a: DayModelBucket, b: DayModelBucket): DayModelBucket => ({
  ...a,
  images: a.images + b.images,
  deleted_images: a.deleted_images + b.deleted_images,
  cost: a.cost + b.cost,
});
const sum = (buckets: readonly UsageBucket[], field: 'images' | 'deleted_images' | 'cost'): number =>
  buckets.reduce((total, bucket) => total + bucket[field], 0);
const codePointOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
