import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Write } from '../../ports/db/unit-of-work.js';
import type { ImageRow } from '../../ports/database.js';
import { fromImageRow } from './rows.js';
import type { DatabaseSchema } from './schema.js';
import { valuesWhere } from './statements.js';
import { writeOf } from './unit-of-work.js';

const SOURCE_COLUMNS = ['image_id', 'position', 'source_id', 'user_id'] as const;
const COUNTER_COLUMNS = ['user_id', 'live_images', 'version'] as const;
const USAGE_COLUMNS = ['user_id', 'day', 'model', 'images', 'deleted_images', 'cost'] as const;

/**
 * Whether a new row counts in `image_counters.live_images`: live, and shown by a list without kind (not an input or
 * mask an edit stored). The counter is an unfiltered list's total, so it counts what that list shows.
 */
const listed = (row: ImageRow): boolean => !row.is_deleted && row.upload_role !== 'input' && row.upload_role !== 'mask';

/** The UTC day of an ISO timestamp: its first ten characters, as the rollups and analytics group it. */
export const dayOf = (iso: string): string => iso.slice(0, 10);

/**
 * A new image as writes: the row, its lineage edges, its place in the live counter (which raises the gallery's
 * version) and, for what a model made, the day's usage. No guards: the row's insert fails the whole unit if its id
 * is taken, so nothing is counted twice. (A batch prompt, which may run again, uses guardedImageWrites.)
 */
export function newImageWrites(db: Kysely<DatabaseSchema>, row: ImageRow): Write[] {
  const writes = [writeOf('images.insert', db.insertInto('images').values(fromImageRow(row)))];
  const lineage = lineageInsert(db, row);
  if (lineage !== undefined) writes.push(writeOf('images.insert: lineage', lineage));
  writes.push(writeOf('images.insert: the live counter', counterUpsert(db, row.user_id, listed(row) ? 1 : 0)));
  if (row.kind !== 'upload') writes.push(writeOf('images.insert: usage of the day', usageUpsert(db, row)));
  return writes;
}

/**
 * A batch prompt's image as writes that apply only while `applies` holds (the prompt is not settled yet) and the
 * image is not recorded yet: a prompt run again after a crash adds nothing twice. The row goes last, so the guards
 * before it see the state before it; its insert tolerates its own id, as a retried prompt may find it.
 */
export function guardedImageWrites(db: Kysely<DatabaseSchema>, row: ImageRow, applies: RawBuilder<boolean>): Write[] {
  const fresh = sql<boolean>`${applies} and not exists (select 1 from images where id = ${row.id})`;
  const writes: Write[] = (row.source_image_ids ?? []).map((sourceId, position) =>
    writeOf(
      'images.record: lineage',
      db
        .insertInto('image_sources')
        .columns(SOURCE_COLUMNS)
        .expression(valuesWhere(db, SOURCE_COLUMNS, { image_id: row.id, position, source_id: sourceId, user_id: row.user_id }, fresh)),
    ),
  );
  writes.push(writeOf('images.record: the live counter', counterUpsert(db, row.user_id, listed(row) ? 1 : 0, fresh)));
  if (row.kind !== 'upload') writes.push(writeOf('images.record: usage of the day', usageUpsert(db, row, fresh)));
  const values = fromImageRow(row);
  const columns = Object.keys(values) as (keyof typeof values)[];
  writes.push(
    writeOf(
      'images.record',
      db
        .insertInto('images')
        .columns(columns)
        .expression(valuesWhere(db, columns, values, applies))
        .onConflict((oc) => oc.column('id').doNothing()),
    ),
  );
  return writes;
}

/**
 * Marks a live image deleted and moves it from the live counter to the day's deleted images, as one unit whose
 * statements each check, themselves, that the image is still live: the image is updated last, so the two before it
 * see it as it was. The third write's `changed` says whether it was deleted (0: unknown, another user's, or already).
 */
export function softDeleteWrites(db: Kysely<DatabaseSchema>, userId: string, id: string, at: string): Write[] {
  const image = () => db.selectFrom('images').where('images.id', '=', id).where('images.user_id', '=', userId).where('images.is_deleted', '=', 0);
  const live = () => image().select(sql<number>`1`.as('one'));
  return [
    writeOf(
      "images.softDelete: the day's deleted images",
      db
        .updateTable('usage_daily')
        .set((eb) => ({ deleted_images: eb('deleted_images', '+', 1) }))
        .where('usage_daily.user_id', '=', userId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('images')
              .select(sql<number>`1`.as('one'))
              .where('images.id', '=', id)
              .where('images.user_id', '=', userId)
              .where('images.is_deleted', '=', 0)
              .whereRef('images.model', '=', 'usage_daily.model')
              .where(sql<string>`substr(images.created_at, 1, 10)`, '=', eb.ref('usage_daily.day')),
          ),
        ),
    ),
    // One less listed image where it was listed (an input or mask never counted), the version raised either way.
    writeOf(
      'images.softDelete: the live counter',
      counterLess(db, userId, countOf(image().where('images.upload_role', 'is', null))).where((eb) => eb.exists(live())),
    ),
    writeOf(
      'images.softDelete',
      db.updateTable('images').set({ is_deleted: 1, deleted_at: at }).where('id', '=', id).where('user_id', '=', userId).where('is_deleted', '=', 0),
    ),
  ];
}

/**
 * Removes an upload (never a generated image: those were paid for and stay counted), and its place in the counter
 * when it was live; the gallery's version moves either way. The second write's `changed` says whether it was there.
 */
export function discardWrites(db: Kysely<DatabaseSchema>, userId: string, id: string): Write[] {
  const upload = () => db.selectFrom('images').where('images.id', '=', id).where('images.user_id', '=', userId).where('images.kind', '=', 'upload');
  return [
    writeOf(
      'images.discardUpload: the live counter',
      counterLess(db, userId, countOf(upload().where('images.is_deleted', '=', 0).where('images.upload_role', 'is', null))).where((eb) =>
        eb.exists(upload().select(sql<number>`1`.as('one'))),
      ),
    ),
    writeOf('images.discardUpload', db.deleteFrom('images').where('id', '=', id).where('user_id', '=', userId).where('kind', '=', 'upload')),
  ];
}

/**
 * An input or mask made a file uploaded on purpose: counted as listed from now on, the version raised. The counter
 * goes first, seeing the image still hidden; the second write's `changed` says whether there was such an upload.
 */
export function showUploadWrites(db: Kysely<DatabaseSchema>, userId: string, id: string): Write[] {
  const hidden = () =>
    db
      .selectFrom('images')
      .select(sql<number>`1`.as('one'))
      .where('images.id', '=', id)
      .where('images.user_id', '=', userId)
      .where('images.kind', '=', 'upload')
      .where('images.is_deleted', '=', 0)
      .where('images.upload_role', 'is not', null);
  return [
    writeOf(
      'images.showUpload: the live counter',
      counterUpdate(db, userId, 1).where((eb) => eb.exists(hidden())),
    ),
    writeOf(
      'images.showUpload',
      db
        .updateTable('images')
        .set({ upload_role: null })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('kind', '=', 'upload')
        .where('is_deleted', '=', 0)
        .where('upload_role', 'is not', null),
    ),
  ];
}

/** The image's thumbnails stored, and the gallery's version raised so that cached pages show them. */
export function thumbnailsWrites(db: Kysely<DatabaseSchema>, userId: string, id: string): Write[] {
  return [
    writeOf('images.markThumbnails: the gallery version', counterUpdate(db, userId, 0)),
    writeOf('images.markThumbnails', db.updateTable('images').set({ has_thumbnails: 1 }).where('id', '=', id).where('user_id', '=', userId)),
  ];
}

/** The counter row moved by `delta` with the gallery's version raised, for a user who has one (anyone with images). */
const counterUpdate = (db: Kysely<DatabaseSchema>, userId: string, delta: number) =>
  db
    .updateTable('image_counters')
    .set((eb) => ({ live_images: eb('image_counters.live_images', '+', delta), version: eb('image_counters.version', '+', 1) }))
    .where('image_counters.user_id', '=', userId);

type ImageCount = SelectQueryBuilder<DatabaseSchema, 'images', { n: number }>;

const countOf = (rows: SelectQueryBuilder<DatabaseSchema, 'images', object>): ImageCount => rows.select((count) => count.fn.countAll<number>().as('n'));

/** The counter less what `counted` counts (0 or 1: the image, where it was counted), the version raised. */
const counterLess = (db: Kysely<DatabaseSchema>, userId: string, counted: ImageCount) =>
  db
    .updateTable('image_counters')
    .set((eb) => ({ live_images: eb('image_counters.live_images', '-', counted), version: eb('image_counters.version', '+', 1) }))
    .where('image_counters.user_id', '=', userId);

/**
 * The live counter moved by `delta` and the gallery's version raised. Every write to a user's images does this in
 * the same unit (these functions are the only writers of `images`), which is what makes cached pages exact.
 */
const counterUpsert = (db: Kysely<DatabaseSchema>, userId: string, delta: number, guard?: Expression<SqlBool>) => {
  const row = { user_id: userId, live_images: delta, version: 1 };
  const insert = db.insertInto('image_counters');
  return (guard === undefined ? insert.values(row) : insert.columns(COUNTER_COLUMNS).expression(valuesWhere(db, COUNTER_COLUMNS, row, guard))).onConflict(
    (oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({ live_images: eb('image_counters.live_images', '+', delta), version: eb('image_counters.version', '+', 1) })),
  );
};

/** The image's edges to the images it was made from, one row each (none for an image made from none). */
const lineageInsert = (db: Kysely<DatabaseSchema>, row: ImageRow) => {
  const sources = row.source_image_ids ?? [];
  if (sources.length === 0) return undefined;
  return db
    .insertInto('image_sources')
    .values(sources.map((sourceId, position) => ({ image_id: row.id, position, source_id: sourceId, user_id: row.user_id })));
};

/**
 * The day's usage of the image's model: one more image, its cost, and one more deleted if it is stored deleted;
 * with `guard`, only where it holds.
 */
const usageUpsert = (db: Kysely<DatabaseSchema>, row: ImageRow, guard?: Expression<SqlBool>) => {
  const usage = { user_id: row.user_id, day: dayOf(row.created_at), model: row.model, images: 1, deleted_images: row.is_deleted ? 1 : 0, cost: row.cost };
  const insert = db.insertInto('usage_daily');
  return (guard === undefined ? insert.values(usage) : insert.columns(USAGE_COLUMNS).expression(valuesWhere(db, USAGE_COLUMNS, usage, guard))).onConflict(
    (oc) =>
      oc.columns(['user_id', 'day', 'model']).doUpdateSet((eb) => ({
        images: eb('usage_daily.images', '+', 1),
        deleted_images: eb('usage_daily.deleted_images', '+', usage.deleted_images),
        cost: eb('usage_daily.cost', '+', usage.cost),
      })),
  );
};
