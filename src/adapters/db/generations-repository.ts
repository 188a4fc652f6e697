import { sql, type Kysely, type Selectable } from 'kysely';
import { GENERATION_WEBHOOK_EVENTS } from '../../ports/db/generations.js';
import type {
  Database,
  GenerationFailure,
  GenerationRepository,
  GenerationRow,
  GenerationStatus,
  GenerationWebhookEvent,
  NewGenerationRow,
  WebhookDeliveryRow,
} from '../../ports/database.js';
import type { UnitOfWork, Write } from '../../ports/db/unit-of-work.js';
import { batchItemWrites } from './batch-item-writes.js';
import { settlementOf } from './charges-repository.js';
import { guardedImageWrites } from './image-writes.js';
import { parseJsonObject, toNumber } from './rows.js';
import type { DatabaseSchema, GenerationsTable } from './schema.js';
import { DEFAULT_MAX_BOUND_PARAMETERS, perStatement, valuesWhere } from './statements.js';
import { writeOf } from './unit-of-work.js';

const STATUSES: readonly GenerationStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const OPEN: GenerationStatus[] = ['queued', 'running'];

function toFailure(text: string | null): GenerationFailure | null {
  const value = parseJsonObject(text);
  if (value === null || typeof value.error !== 'string' || typeof value.code !== 'string') return null;
  return value as unknown as GenerationFailure;
}

/** The stored list, read back as known events only (in their own order), so a damaged row sends nothing unknown. */
function toEvents(text: string | null): GenerationWebhookEvent[] | null {
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return Array.isArray(parsed) ? GENERATION_WEBHOOK_EVENTS.filter((event) => parsed.includes(event)) : null;
}

/** The claim columns are the runs' business, never part of a generation as read. */
const toRow = ({ run_token: _token, claimed_until: _until, ...row }: Selectable<GenerationsTable>): GenerationRow => ({
  ...row,
  webhook_events: toEvents(row.webhook_events),
  status: STATUSES.find((status) => status === row.status) ?? 'failed',
  request: parseJsonObject(row.request) ?? {},
  error: toFailure(row.error),
  progress: row.progress === null ? null : toNumber(row.progress),
  batch_idx: row.batch_idx === null ? null : toNumber(row.batch_idx),
  queue_rank: toNumber(row.queue_rank),
});

/** The columns of a new generation but its rank, which `rankedRows` (or the insert's own statement) gives. */
export const fromRow = (row: NewGenerationRow): Omit<Selectable<GenerationsTable>, 'queue_rank'> => ({
  ...row,
  run_token: null,
  claimed_until: null,
  request: JSON.stringify(row.request),
  error: row.error === null ? null : JSON.stringify(row.error),
  webhook_events: row.webhook_events === null ? null : JSON.stringify(row.webhook_events),
});

/** Rows per multi-row insert (insertMany), fewer where the database binds fewer values (D1). */
const ROWS_PER_INSERT = 200;

/**
 * Which job queue runs a generation, each a fair queue of its own with its own ranks: single generations run as
 * `generation` jobs, a batch's prompts as `batch-item` jobs (each queue served in rank order, at its own pace, so one
 * queue's ranks say nothing about the other's). Were batch prompts to run as `generation` jobs, this is the one place
 * to change: every generation would then share one queue.
 */
const inQueueOf = (row: Pick<GenerationRow, 'batch_id'>) => (row.batch_id === null ? sql<boolean>`batch_id is null` : sql<boolean>`batch_id is not null`);

/** Where a generation queues in turn with others: its key's lane, or its user's when it has no key, in its queue. */
type Lane = Pick<GenerationRow, 'user_id' | 'key_id' | 'batch_id'>;
const laneOf = (row: Lane): string => JSON.stringify([row.user_id, row.key_id, row.batch_id === null]);

/**
 * The rank a generation of `lane` queued now takes: the round its queue is serving, or the round after the lane's last
 * open generation when that is later (see GenerationRepository.insert). For single generations each part is one seek
 * of an index (generations_queue, generations_lane, whose batch_id column keeps them apart from a batch's); `max` over a
 * union is the portable greatest-of, and ignores the parts that are null.
 */
function nextRank(lane: Lane) {
  const queue = inQueueOf(lane);
  const inLane = lane.key_id === null ? sql`user_id = ${lane.user_id} and key_id is null` : sql`user_id = ${lane.user_id} and key_id = ${lane.key_id}`;
  const round = sql`coalesce((select max(queue_rank) from generations where status = 'running' and ${queue}), (select min(queue_rank) from generations where status = 'queued' and ${queue}), 0)`;
  const after = (status: GenerationStatus) => sql`(select max(queue_rank) from generations where status = ${status} and ${inLane} and ${queue}) + 1`;
  return sql<number>`(select max(candidate) from (select ${round} as candidate union all select ${after('queued')} union all select ${after('running')}) as candidates)`;
}

/**
 * Ranks generations about to be inserted together (a batch's prompts) as `insert` would one after another: each lane's
 * next rank read once, its rows numbered on from it in the order given. For writers that insert the rows themselves,
 * in a unit of work of their own (a batch with its prompts), so every generation row is ranked the same way.
 */
export async function rankedRows(db: Kysely<DatabaseSchema>, rows: readonly NewGenerationRow[]): Promise<GenerationRow[]> {
  const next = new Map<string, number>();
  for (const row of rows) {
    const lane = laneOf(row);
    if (next.has(lane)) continue;
    const read = await db.selectNoFrom(nextRank(row).as('rank')).executeTakeFirstOrThrow();
    next.set(lane, toNumber(read.rank));
  }
  return rows.map((row) => {
    const lane = laneOf(row);
    const rank = next.get(lane) ?? 0;
    next.set(lane, rank + 1);
    return { ...row, queue_rank: rank };
  });
}

export function createGenerationRepository(
  db: Kysely<DatabaseSchema>,
  dialect: Database['dialect'],
  unit: UnitOfWork,
  limits = { maxBoundParameters: DEFAULT_MAX_BOUND_PARAMETERS },
): GenerationRepository {
  const batchItems = batchItemWrites(db, dialect);
  /** The generation is still open: every write of its ending applies only then, and the generation itself is written last. */
  const open = (id: string) => sql<boolean>`exists (select 1 from generations where id = ${id} and status in ('queued', 'running'))`;
  /**
   * The generation's webhook event into the outbox, only while `guard` holds (the state change it reports applies).
   * Its id is fixed by the generation and the event, so a second run stores nothing more.
   */
  const eventWrites = (event: WebhookDeliveryRow | undefined, guard: ReturnType<typeof open>): Write[] => {
    if (event === undefined) return [];
    const columns = Object.keys(event) as (keyof WebhookDeliveryRow)[];
    return [
      writeOf(
        `generations: the ${event.event} event`,
        db
          .insertInto('webhook_deliveries')
          .columns(columns)
          .expression(valuesWhere(db, columns, event, guard))
          .onConflict((oc) => oc.column('id').doNothing()),
      ),
    ];
  };
  const byId = async (id: string) => {
    const row = await db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toRow(row);
  };

  return {
    async insert(row) {
      const stored = await db
        .insertInto('generations')
        .values({ ...fromRow(row), queue_rank: nextRank(row) })
        .returning('queue_rank')
        .executeTakeFirstOrThrow();
      return { ...row, queue_rank: toNumber(stored.queue_rank) };
    },
    async insertMany(rows) {
      const ranked = await rankedRows(db, rows);
      const values = ranked.map((row) => ({ ...fromRow(row), queue_rank: row.queue_rank }));
      const rowsPerInsert = perStatement(ROWS_PER_INSERT, limits.maxBoundParameters, Object.keys(values[0] ?? {}).length || 1);
      for (let at = 0; at < values.length; at += rowsPerInsert)
        await db
          .insertInto('generations')
          .values(values.slice(at, at + rowsPerInsert))
          .execute();
      return ranked;
    },
    async find(userId, id) {
      const row = await db.selectFrom('generations').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row === undefined ? undefined : toRow(row);
    },
    findAny: byId,
    async list(userId, filter, page) {
      let scope = db.selectFrom('generations').where('user_id', '=', userId);
      if (filter.status !== undefined) scope = scope.where('status', '=', filter.status);
      const [rows, count] = await Promise.all([
        scope.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
      ]);
      return { items: rows.map(toRow), total: toNumber(count?.total) };
    },
    async start(id, at, claim, event, batchItem) {
      // Queued, or running under a claim that lapsed (its run stopped) or is this run's own.
      const free = sql<boolean>`(status = 'queued' or claimed_until is null or claimed_until < ${at} or run_token = ${claim.token})`;
      const startable = sql<boolean>`exists (select 1 from generations where id = ${id} and status in ('queued', 'running') and cancel_requested_at is null and ${free})`;
      let start = db
        .updateTable('generations')
        .set((eb) => ({ status: 'running', started_at: eb.fn.coalesce('started_at', sql<string>`${at}`), run_token: claim.token, claimed_until: claim.until }))
        .where('id', '=', id)
        .where('status', 'in', OPEN)
        .where('cancel_requested_at', 'is', null)
        .where(free);
      // A batch's prompt starts only while its batch runs it: the batch's cancel dropped it otherwise.
      if (batchItem !== undefined) start = start.where(batchItems.started(batchItem));
      const outcomes = await unit.commit([
        ...(batchItem === undefined ? [] : batchItems.start(batchItem, at, startable)),
        ...eventWrites(event, startable),
        writeOf('generations.start', start),
      ]);
      return (outcomes.at(-1)?.changed ?? 0) > 0;
    },
    async succeed(id, image, at, charge, event, batchItem) {
      const applies = open(id);
      const writes: Write[] = [
        // First: on PostgreSQL its batch row lock is taken before anything else, as every writer of a batch does.
        ...(batchItem === undefined ? [] : batchItems.settle(batchItem, 'succeeded', at, applies)),
        ...guardedImageWrites(db, image, applies),
        ...(charge === undefined ? [] : [writeOf('charges.settle', settlementOf(db, charge).where(applies))]),
        ...eventWrites(event, applies),
        writeOf(
          'generations.succeed',
          db.updateTable('generations').set({ status: 'succeeded', finished_at: at, progress: 1 }).where('id', '=', id).where('status', 'in', OPEN),
        ),
      ];
      const outcomes = await unit.commit(writes);
      return (outcomes.at(-1)?.changed ?? 0) > 0;
    },
    async end(id, status, failure, at, options = {}) {
      const from: GenerationStatus[] = options.onlyQueued === true ? ['queued'] : OPEN;
      const applies = options.onlyQueued === true ? sql<boolean>`exists (select 1 from generations where id = ${id} and status = 'queued')` : open(id);
      const { batchItem } = options;
      const outcomes = await unit.commit([
        ...(batchItem === undefined ? [] : batchItems.settle(batchItem, status, at, applies)),
        ...eventWrites(options.event, applies),
        writeOf(
          `generations.end: ${status}`,
          db
            .updateTable('generations')
            .set({ status, error: JSON.stringify(failure), finished_at: at })
            .where('id', '=', id)
            .where('status', 'in', from),
        ),
      ]);
      return (outcomes.at(-1)?.changed ?? 0) > 0;
    },
    async requestCancel(userId, id, at, failure, event) {
      const queued = sql<boolean>`exists (select 1 from generations where id = ${id} and user_id = ${userId} and status = 'queued')`;
      // A batch's prompt cancelled while queued leaves its batch too (counted in neither of its counters).
      const before = await byId(id);
      const batchItem = before?.batch_id == null || before.batch_idx === null ? undefined : { batchId: before.batch_id, idx: before.batch_idx };
      const outcomes = await unit.commit([
        ...(batchItem === undefined ? [] : batchItems.settle(batchItem, 'cancelled', at, queued)),
        ...eventWrites(event, queued),
        writeOf(
          'generations.requestCancel',
          db
            .updateTable('generations')
            .set({ status: 'cancelled', error: JSON.stringify(failure), finished_at: at, cancel_requested_at: at })
            .where('id', '=', id)
            .where('user_id', '=', userId)
            .where('status', '=', 'queued'),
        ),
      ]);
      const cancelled = outcomes.at(-1)?.changed ?? 0;
      if (cancelled === 0) {
        await db
          .updateTable('generations')
          .set((eb) => ({ cancel_requested_at: eb.fn.coalesce('cancel_requested_at', sql<string>`${at}`) }))
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .where('status', '=', 'running')
          .execute();
      }
      const row = await byId(id);
      if (row === undefined || row.user_id !== userId) return undefined;
      if (cancelled > 0) return { outcome: 'cancelled', row };
      return { outcome: row.status === 'running' ? 'requested' : 'final', row };
    },
    async renewClaim(id, claim) {
      const renewed = await db
        .updateTable('generations')
        .set({ claimed_until: claim.until })
        .where('id', '=', id)
        .where('run_token', '=', claim.token)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return toNumber(renewed.numUpdatedRows) > 0;
    },
    async releaseClaim(id, token) {
      await db.updateTable('generations').set({ run_token: null, claimed_until: null }).where('id', '=', id).where('run_token', '=', token).execute();
    },
    async releaseAllClaims() {
      const released = await db.updateTable('generations').set({ run_token: null, claimed_until: null }).where('run_token', 'is not', null).executeTakeFirst();
      return toNumber(released.numUpdatedRows);
    },
    async setProgress(id, progress) {
      await db.updateTable('generations').set({ progress }).where('id', '=', id).where('status', '=', 'running').execute();
    },
    async queuedBefore(row) {
      // Along generations_queue, in its queue: (rank, age, id) orders the queue as the job claims take it.
      const count = await db
        .selectFrom('generations')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', '=', 'queued')
        .where(inQueueOf(row))
        .where((eb) => eb(eb.refTuple('queue_rank', 'created_at', 'id'), '<', eb.tuple(row.queue_rank, row.created_at, row.id)))
        .executeTakeFirst();
      return toNumber(count?.n);
    },
    async unfinished(before, limit) {
      // Served by (status, created_at); PostgreSQL and SQLite read the two statuses as two ranges of it.
      const rows = await db
        .selectFrom('generations')
        .selectAll()
        .where('status', 'in', OPEN)
        .where('created_at', '<', before)
        .where('batch_id', 'is', null)
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },
    async ensureForBatchItem(row) {
      if (row.batch_id === null || row.batch_idx === null) throw new Error(`generation ${row.id} runs no batch prompt`);
      const { batch_id: batchId, batch_idx: idx } = row;
      await db
        .insertInto('generations')
        .values({ ...fromRow(row), queue_rank: nextRank(row) })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const found = await db.selectFrom('generations').selectAll().where('batch_id', '=', batchId).where('batch_idx', '=', idx).executeTakeFirstOrThrow();
      await db
        .updateTable('batch_items')
        .set({ generation_id: found.id })
        .where('batch_id', '=', batchId)
        .where('idx', '=', idx)
        .where('generation_id', 'is', null)
        .execute();
      return toRow(found);
    },
  };
}
