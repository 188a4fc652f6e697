import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, ImageFilter, ImageRepository } from '../../ports/database.js';
import { discardWrites, newImageWrites, showUploadWrites, softDeleteWrites, thumbnailsWrites } from './image-writes.js';
import { sharedReads } from '../support/shared-reads.js';
import { DEFAULT_MAX_BOUND_PARAMETERS, perStatement } from './statements.js';
import type { UnitOfWork } from '../../ports/db/unit-of-work.js';
import { ImagePageCache, pageKey } from './image-page-cache.js';
import { foldForSearch } from './search-fold.js';
import { toImageRow, toLiveImageRow, toNumber } from './rows.js';
import type { DatabaseSchema } from './schema.js';
import type { CommittedRead } from './committed-read.js';

/**
 * What a page shows: a live list knows its user, that nothing in it is deleted, and does not show the key that made
 * an image or the search column; each column left out is one value less to build per row (a fifth of the read).
 */
const LISTED_COLUMNS = [
  'id',
  'prompt',
  'model',
  'r2_key',
  'width',
  'height',
  'cost',
  'created_at',
  'template_id',
  'metadata',
  'parameters',
  'kind',
  'source_image_ids',
  'has_thumbnails',
  'upload_role',
] as const;

/** Keys per query at most: well under SQLite's and PostgreSQL's limits on bound parameters (fewer on D1). */
const KEYS_PER_QUERY = 500;

export function createImageRepository(
  db: Kysely<DatabaseSchema>,
  dialect: Database['dialect'],
  unit: UnitOfWork,
  options: { maxBoundParameters: number; readCommitted?: CommittedRead } = { maxBoundParameters: DEFAULT_MAX_BOUND_PARAMETERS },
  pages = new ImagePageCache(),
): ImageRepository {
  const keysPerQuery = perStatement(KEYS_PER_QUERY, options.maxBoundParameters, 1);
  // The hottest read of all (every list starts with it), compiled once rather than built per request.
  const counterText = `select live_images, version from image_counters where user_id = ${dialect === 'sqlite' ? '?' : '$1'}`;
  const toCounter = (row: { live_images?: unknown; version?: unknown } | undefined) => ({ live: toNumber(row?.live_images), version: toNumber(row?.version) });
  const { readCommitted } = options;
  const queryCounter = async (userId: string): Promise<{ live: number; version: number }> => {
    // SQLite: answered in place, a third of a cached list's database time (Kysely's queue and promises, profiled).
    const committed = readCommitted?.(counterText, [userId]);
    if (committed !== undefined) return toCounter(committed[0]);
    const { rows } = await db.executeQuery<{ live_images: unknown; version: unknown }>(CompiledQuery.raw(counterText, [userId]));
    return toCounter(rows[0]);
  };
  // A server round trip per list is most of its cost: concurrent lists of one gallery share reads that began
  // after they asked (exact, see shared-reads.ts). SQLite answers in-process, sooner than any sharing would.
  const readCounter = dialect === 'sqlite' ? queryCounter : sharedReads(queryCounter);

  const live = (userId: string) => db.selectFrom('images').where('user_id', '=', userId).where('is_deleted', '=', 0);

  /**
   * The children of an image are a few rows of its edges (image_sources_by_source). Without statistics, SQLite's
   * planner instead walks the whole gallery through the user's index and checks each image against them: 10 ms for
   * a page and 10 ms for its count at 100,000 images. The unary `+` keeps that index out of this one term, so the
   * plan starts from the edges and looks each child up by id (0.03 ms). PostgreSQL plans by its statistics.
   */
  const scopeOf = (userId: string, filter: ImageFilter) =>
    filter.derived_from !== undefined && dialect === 'sqlite'
      ? db
          .selectFrom('images')
          .where(sql<string>`+user_id`, '=', userId)
          .where('is_deleted', '=', 0)
      : live(userId);

  const matching = (userId: string, filter: ImageFilter) => {
    let scope = scopeOf(userId, filter);
    if (filter.text !== undefined) scope = scope.where(promptContains(dialect, filter.text));
    if (filter.model !== undefined) scope = scope.where('model', '=', filter.model);
    if (filter.from !== undefined) scope = scope.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) scope = scope.where('created_at', '<', filter.to);
    // Without a kind, the gallery: an edit's inputs and masks only under kind upload (the live counter agrees).
    scope = filter.kind === undefined ? scope.where('upload_role', 'is', null) : scope.where('kind', '=', filter.kind);
    const parent = filter.derived_from;
    if (parent !== undefined) {
      scope = scope.where('id', 'in', db.selectFrom('image_sources').select('image_id').where('user_id', '=', userId).where('source_id', '=', parent));
    }
    return scope;
  };

  /** An unfiltered total is the user's counter row (it counts the images a list without kind shows); a filtered one has to count. */
  const countMatching = async (userId: string, filter: ImageFilter, live: number): Promise<number> => {
    if (Object.values(filter).every((value) => value === undefined)) return live;
    const count = await matching(userId, filter)
      .select((eb) => eb.fn.countAll().as('total'))
      .executeTakeFirst();
    return toNumber(count?.total);
  };

  return {
    recordWrites: (row) => newImageWrites(db, row),
    async insert(row) {
      await unit.commit(newImageWrites(db, row));
    },
    async insertMany(rows) {
      await unit.commit(rows.flatMap((row) => newImageWrites(db, row)));
    },
    async derivedIds(userId, id, limit) {
      // From the image's edges to its children, never the other way round: with ORDER BY and LIMIT in the query,
      // the planners walk the user's whole gallery newest first testing each image (9 ms on SQLite and 31 ms on
      // PostgreSQL at 100,000 images, instead of about 1). The children of one image are few: sorted here.
      const rows = await db
        .selectFrom('image_sources as s')
        .innerJoin('images as i', 'i.id', 's.image_id')
        .select(['i.id', 'i.created_at'])
        .where('s.user_id', '=', userId)
        .where('s.source_id', '=', id)
        .where('i.user_id', '=', userId)
        .where('i.is_deleted', '=', 0)
        .execute();
      // Newest first, then by id descending: the order of every image list.
      const key = (row: { created_at: string; id: string }) => `${row.created_at}\u0000${row.id}`;
      const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0);
      rows.sort(newestFirst);
      return rows.slice(0, limit).map((row) => row.id);
    },
    async findLive(userId, id) {
      const row = await live(userId).selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toImageRow(row);
    },
    async listLive(userId, page, filter = {}) {
      // The version is read before the page: a write landing in between leaves a page newer than its version,
      // which the next read finds changed and queries again; never an older page under a newer version.
      const counter = await readCounter(userId);
      const key = pageKey(page, filter);
      const cached = pages.get(userId, key, counter.version);
      if (cached !== undefined) return cached;
      let rows = matching(userId, filter).select(LISTED_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc');
      const { after } = page;
      if (after !== undefined) {
        // A row-value comparison is a range on the index on both dialects; the equivalent OR walks the index
        // from the newest row and filters (25 ms instead of 0.8 ms at 90% depth of 200,000 images on SQLite).
        rows = rows.where(sql<boolean>`(created_at, id) < (${after.created_at}, ${after.id})`);
      } else if (page.offset > 0) {
        rows = rows.offset(page.offset);
      }
      // One row more than asked says whether another page follows, without counting.
      const [found, total] = await Promise.all([rows.limit(page.limit + 1).execute(), countMatching(userId, filter, counter.live)]);
      const result = { items: found.slice(0, page.limit).map((row) => toLiveImageRow(row, userId)), total, hasMore: found.length > page.limit };
      pages.set(userId, key, counter.version, result);
      return result;
    },
    async findUploadByContent(userId, contentHash) {
      const row = await live(userId)
        .selectAll()
        .where('content_hash', '=', contentHash)
        .where('kind', '=', 'upload')
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row === undefined ? undefined : toImageRow(row);
    },
    async showUpload(userId, id) {
      const [, shown] = await unit.commit(showUploadWrites(db, userId, id));
      return (shown?.changed ?? 0) > 0;
    },
    async discardUpload(userId, id) {
      const [, removed] = await unit.commit(discardWrites(db, userId, id));
      return (removed?.changed ?? 0) > 0;
    },
    async softDelete(userId, id, at) {
      const [, , deleted] = await unit.commit(softDeleteWrites(db, userId, id, at));
      return (deleted?.changed ?? 0) > 0;
    },
    async markThumbnails(userId, id) {
      const [, marked] = await unit.commit(thumbnailsWrites(db, userId, id));
      return (marked?.changed ?? 0) > 0;
    },
    async liveKeys(keys) {
      const found = new Set<string>();
      for (let start = 0; start < keys.length; start += keysPerQuery) {
        const chunk = keys.slice(start, start + keysPerQuery);
        const rows = await db.selectFrom('images').select('r2_key').distinct().where('r2_key', 'in', chunk).where(LIVE).execute();
        for (const row of rows) found.add(row.r2_key);
      }
      return found;
    },
    async liveIds(ids) {
      const found = new Set<string>();
      for (let start = 0; start < ids.length; start += keysPerQuery) {
        const chunk = ids.slice(start, start + keysPerQuery);
        const rows = await db.selectFrom('images').select('id').where('id', 'in', chunk).where(LIVE).execute();
        for (const row of rows) found.add(row.id);
      }
      return found;
    },
  };
}

/** Live rows, written inline: a bound 0 would be one more parameter than a chunk of keys leaves room for (D1 takes 100). */
const LIVE = sql<boolean>`is_deleted = 0`;

/** The text as a LIKE pattern that matches it literally: the escape character and both wildcards are escaped. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Trigram indexes (FTS5 and pg_trgm) need three characters; shorter searches scan the user's images. */
const TRIGRAM = 3;

/**
 * A case-insensitive, literal substring match on the prompt that uses the search index when it can.
 * PostgreSQL: lower(prompt) LIKE lower(text), through the pg_trgm index on lower(prompt). SQLite, whose lower()
 * folds ASCII only: the stored foldForSearch(prompt) contains foldForSearch(text), which is the same per-character
 * lowercasing, so both find the same images; through the FTS5 trigram table on that column when the text is long enough.
 */
function promptContains(dialect: Database['dialect'], text: string): RawBuilder<boolean> {
  if (dialect !== 'sqlite') {
    // ESCAPE is spelled out; PostgreSQL's default is the same backslash.
    return sql<boolean>`lower(prompt) like lower(${`%${escapeLike(text)}%`}) escape '\\'`;
  }
  const folded = foldForSearch(text);
  // instr is a literal match: no wildcards to escape, and no case folding of its own.
  const contains = sql<boolean>`instr(prompt_folded, ${folded}) > 0`;
  if ([...folded].length < TRIGRAM) return contains;
  // A phrase of the whole text matches its trigrams in a row; instr then confirms the exact substring.
  const phrase = `"${folded.replaceAll('"', '""')}"`;
  return sql<boolean>`images.rowid in (select rowid from images_search where images_search match ${phrase}) and ${contains}`;
}
