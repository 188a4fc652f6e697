import type { Kysely, Transaction } from 'kysely';
import type { ImageRow } from '../../ports/database.js';
import { fromImageRow, toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';

type Writer = Kysely<DatabaseSchema> | Transaction<DatabaseSchema>;

/** The UTC day of an ISO timestamp: its first ten characters, as the rollups and analytics group it. */
export const dayOf = (iso: string): string => iso.slice(0, 10);

/**
 * Records an image with its counter and rollup, inside the caller's transaction, so `total` and analytics
 * never disagree with the images. False when the id already existed (a retried batch prompt): nothing counts twice.
 */
export async function recordImage(trx: Transaction<DatabaseSchema>, row: ImageRow): Promise<boolean> {
  const inserted = await trx.insertInto('images').values(fromImageRow(row)).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  if (toNumber(inserted.numInsertedOrUpdatedRows) === 0) return false;
  await bumpCounter(trx, row.user_id, row.is_deleted ? 0 : 1);
  const sources = row.source_image_ids ?? [];
  if (sources.length > 0) {
    await trx
      .insertInto('image_sources')
      .values(sources.map((sourceId, position) => ({ image_id: row.id, position, source_id: sourceId, user_id: row.user_id })))
      .execute();
  }
  // Usage and cost analytics count what models made; an upload made nothing and cost nothing.
  if (row.kind === 'upload') return true;
  await trx
    .insertInto('usage_daily')
    .values({ user_id: row.user_id, day: dayOf(row.created_at), model: row.model, images: 1, deleted_images: row.is_deleted ? 1 : 0, cost: row.cost })
    .onConflict((oc) =>
      oc.columns(['user_id', 'day', 'model']).doUpdateSet((eb) => ({
        images: eb('usage_daily.images', '+', 1),
        deleted_images: eb('usage_daily.deleted_images', '+', row.is_deleted ? 1 : 0),
        cost: eb('usage_daily.cost', '+', row.cost),
      })),
    )
    .execute();
  return true;
}

/** Marks a live image deleted and moves it from the live counter to the day's deleted images. */
export async function recordSoftDelete(trx: Transaction<DatabaseSchema>, userId: string, id: string, at: string): Promise<boolean> {
  const image = await trx.selectFrom('images').select(['created_at', 'model']).where('id', '=', id).where('user_id', '=', userId).where('is_deleted', '=', 0).executeTakeFirst();
  if (image === undefined) return false;
  const updated = await trx.updateTable('images').set({ is_deleted: 1, deleted_at: at }).where('id', '=', id).where('is_deleted', '=', 0).executeTakeFirst();
  if (toNumber(updated.numUpdatedRows) === 0) return false;
  await bumpCounter(trx, userId, -1);
  await trx
    .updateTable('usage_daily')
    .set((eb) => ({ deleted_images: eb('deleted_images', '+', 1) }))
    .where('user_id', '=', userId)
    .where('day', '=', dayOf(image.created_at))
    .where('model', '=', image.model)
    .execute();
  return true;
}

/** Removes an upload (never a generated image: those were paid for and stay counted), and its place in the counter. */
export async function recordDiscard(trx: Transaction<DatabaseSchema>, userId: string, id: string): Promise<boolean> {
  const upload = await trx.selectFrom('images').select('is_deleted').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'upload').executeTakeFirst();
  if (upload === undefined) return false;
  await trx.deleteFrom('images').where('id', '=', id).execute();
  await bumpCounter(trx, userId, Number(upload.is_deleted) === 0 ? -1 : 0);
  return true;
}

/**
 * Moves the live counter by `delta` and raises the gallery's version: every write to a user's images calls this in
 * its transaction (these functions are the only writers of `images`), which is what makes cached pages exact.
 */
async function bumpCounter(writer: Writer, userId: string, delta: number): Promise<void> {
  await writer
    .insertInto('image_counters')
    .values({ user_id: userId, live_images: delta, version: 1 })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ live_images: eb('image_counters.live_images', '+', delta), version: eb('image_counters.version', '+', 1) })),
    )
    .execute();
}
