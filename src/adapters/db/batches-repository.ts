import { sql, type Kysely, type Selectable } from 'kysely';
import type { BatchItemRow, BatchRepository, BatchRow, BatchStatus, Database, WebhookDeliveryRow } from '../../ports/database.js';
import type { UnitOfWork, Write } from '../../ports/db/unit-of-work.js';
import { fromRow as generationColumns, rankedRows } from './generations-repository.js';
import { parseJsonObject, toNumber } from './rows.js';
import type { BatchItemsTable, BatchesTable, DatabaseSchema } from './schema.js';
import { DEFAULT_MAX_BOUND_PARAMETERS, perStatement, valuesWhere } from './statements.js';
import { writeOf } from './unit-of-work.js';

const toBatch = ({ key_id: keyId, ...row }: Selectable<BatchesTable>): BatchRow => ({
  ...row,
  ...(keyId === null ? {} : { key_id: keyId }),
  parameters: parseJsonObject(row.parameters) ?? {},
  status: row.status as BatchStatus,
  total_prompts: Number(row.total_prompts),
  completed_count: Number(row.completed_count),
  failed_count: Number(row.failed_count),
});
const toItem = (row: Selectable<BatchItemsTable>): BatchItemRow => ({ ...row, idx: Number(row.idx), status: row.status as BatchItemRow['status'] });

const OPEN: BatchStatus[] = ['queued', 'processing'];
/** What a batch's prompt cancelled with its batch answers at GET /api/generations/{id}. */
const BATCH_CANCELLED = {
  error: 'Generation cancelled',
  code: 'GENERATION_CANCELLED',
  details: { message: 'its batch was cancelled before this prompt started, so it was never sent or charged' },
};
const OPEN_ITEMS: BatchItemRow['status'][] = ['pending', 'running'];
/** Rows per multi-row insert: 7 parameters each keeps a statement far under SQLite's and PostgreSQL's limits. */
const ITEMS_PER_INSERT = 500;

export function createBatchRepository(
  db: Kysely<DatabaseSchema>,
  dialect: Database['dialect'],
  unit: UnitOfWork,
  limits: { maxBoundParameters: number } = { maxBoundParameters: DEFAULT_MAX_BOUND_PARAMETERS },
): BatchRepository {
  /**
   * Every transaction that writes a batch and its items locks the batch row first, as `cancel` does by
   * updating it: in the other order a worker starting an item and a user cancelling the batch each hold
   * what the other waits for, and PostgreSQL aborts one of them as a deadlock. SQLite runs one writer at a time.
   */
  const lockWrites = (batchId: string): Write[] =>
    dialect === 'postgres' ? [writeOf('batches: the batch row lock', db.selectFrom('batches').select('id').where('id', '=', batchId).forUpdate())] : [];
  /** The batch's prompts still to run or running: none left is when a batch finishes. */
  const openItems = (batchId: string) => db.selectFrom('batch_items').select('idx').where('batch_id', '=', batchId).where('status', 'in', OPEN_ITEMS).limit(1);
  const itemsOf = async (reader: Kysely<DatabaseSchema>, batchId: string) =>
    (await reader.selectFrom('batch_items').selectAll().where('batch_id', '=', batchId).orderBy('idx').execute()).map(toItem);

  /**
   * A batch's final event into the outbox, if the batch is in the state the event reports. Its id is the batch's
   * own (one final event per batch), so a second finisher's insert is a no-op rather than a second webhook.
   */
  const eventWrite = (row: WebhookDeliveryRow, status: BatchStatus): Write => {
    const columns = Object.keys(row) as (keyof WebhookDeliveryRow)[];
    const reached = sql<boolean>`exists (select 1 from batches where id = ${row.batch_id} and status = ${status})`;
    return writeOf(
      `batches: the batch.${status} event`,
      db
        .insertInto('webhook_deliveries')
        .columns(columns)
        .expression(valuesWhere(db, columns, row, reached))
        .onConflict((oc) => oc.column('id').doNothing()),
    );
  };

  return {
    async create(batch, items, generations = []) {
      const writes = [
        writeOf('batches.create', db.insertInto('batches').values({ ...batch, key_id: batch.key_id ?? null, parameters: JSON.stringify(batch.parameters) })),
      ];
      // A few statements instead of one per prompt: a batch's first calls wait on this insert.
      const perInsert = perStatement(ITEMS_PER_INSERT, limits.maxBoundParameters, Object.keys(items[0] ?? {}).length || 1);
      for (let at = 0; at < items.length; at += perInsert)
        writes.push(writeOf('batches.create: its prompts', db.insertInto('batch_items').values(items.slice(at, at + perInsert))));
      // Ranked as every generation is, read before the unit (D1 runs it as one batch of statements, with no reads between).
      const ranked = await rankedRows(db, generations);
      const rows = ranked.map((row) => ({ ...generationColumns(row), queue_rank: row.queue_rank }));
      const perGenerationInsert = perStatement(ITEMS_PER_INSERT, limits.maxBoundParameters, Object.keys(rows[0] ?? {}).length || 1);
      for (let at = 0; at < rows.length; at += perGenerationInsert)
        writes.push(writeOf('batches.create: their generations', db.insertInto('generations').values(rows.slice(at, at + perGenerationInsert))));
      await unit.commit(writes);
      return ranked;
    },
    async find(userId, id) {
      const row = await db.selectFrom('batches').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row === undefined ? undefined : toBatch(row);
    },
    async findAny(id) {
      const row = await db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toBatch(row);
    },
    async list(userId, page) {
      const scope = db.selectFrom('batches').where('user_id', '=', userId);
      const [rows, count] = await Promise.all([
        scope.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        scope.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
      ]);
      return { items: rows.map(toBatch), total: toNumber(count?.total) };
    },
    items: (batchId) => itemsOf(db, batchId),
    async item(batchId, idx) {
      const row = await db.selectFrom('batch_items').selectAll().where('batch_id', '=', batchId).where('idx', '=', idx).executeTakeFirst();
      return row === undefined ? undefined : toItem(row);
    },
    async finishIfDone(batchId, at, delivery) {
      // Read first, then one guarded unit (D1 has no interactive transactions). Once no item is open, none opens
      // again and the counters are final, so the event rendered from this read is the one the batch ends with.
      // Called after every prompt: one indexed probe, and the items are read only once none is open.
      if ((await openItems(batchId).executeTakeFirst()) !== undefined) return { finished: false };
      const items = await itemsOf(db, batchId);
      const batch = await db.selectFrom('batches').selectAll().where('id', '=', batchId).where('status', 'in', OPEN).executeTakeFirst();
      if (batch === undefined) return { finished: false };
      const final: BatchRow = { ...toBatch(batch), status: 'completed', finished_at: at, updated_at: at };
      const row = delivery(final, items);
      const [finished, stored] = await unit.commit([
        // The status guard makes exactly one caller the finisher.
        writeOf(
          'batches.finish',
          db
            .updateTable('batches')
            .set({ status: 'completed', finished_at: at, updated_at: at })
            .where('id', '=', batchId)
            .where('status', 'in', OPEN)
            .where((eb) => eb.not(eb.exists(openItems(batchId)))),
        ),
        ...(row === undefined ? [] : [eventWrite(row, 'completed')]),
      ]);
      if ((finished?.changed ?? 0) === 0) return { finished: false };
      return (stored?.changed ?? 0) > 0 && row !== undefined ? { finished: true, delivery: row } : { finished: true };
    },
    async cancel(userId, batchId, at, delivery) {
      // Read, then a unit guarded on what was read: a prompt settling in between changes the counters the event
      // reports, so the unit then applies nothing and the cancel starts again from a fresh read. Each prompt
      // settles once, so this ends.
      for (;;) {
        const found = await db
          .selectFrom('batches')
          .selectAll()
          .where('id', '=', batchId)
          .where('user_id', '=', userId)
          .where('status', 'in', OPEN)
          .executeTakeFirst();
        if (found === undefined) return undefined;
        const read = toBatch(found);
        const items = (await itemsOf(db, batchId)).map((item): BatchItemRow =>
          item.status === 'pending' ? { ...item, status: 'cancelled', updated_at: at } : item,
        );
        const batch: BatchRow = { ...read, status: 'cancelled', finished_at: at, updated_at: at };
        const row = delivery(batch, items);
        const [cancelled, , , stored] = await unit.commit([
          writeOf(
            'batches.cancel',
            db
              .updateTable('batches')
              .set({ status: 'cancelled', finished_at: at, updated_at: at })
              .where('id', '=', batchId)
              .where('user_id', '=', userId)
              .where('status', 'in', OPEN)
              .where('completed_count', '=', read.completed_count)
              .where('failed_count', '=', read.failed_count),
          ),
          writeOf(
            'batches.cancel: its pending prompts',
            db
              .updateTable('batch_items')
              .set({ status: 'cancelled', updated_at: at })
              .where('batch_id', '=', batchId)
              .where('status', '=', 'pending')
              .where((eb) => eb.exists(eb.selectFrom('batches').select('id').where('id', '=', batchId).where('status', '=', 'cancelled'))),
          ),
          // Their generations, never started, are cancelled uncharged; a running one finishes and settles its prompt.
          writeOf(
            'batches.cancel: their queued generations',
            db
              .updateTable('generations')
              .set({ status: 'cancelled', error: JSON.stringify(BATCH_CANCELLED), finished_at: at, cancel_requested_at: at })
              .where('batch_id', '=', batchId)
              .where('status', '=', 'queued')
              .where((eb) => eb.exists(eb.selectFrom('batches').select('id').where('id', '=', batchId).where('status', '=', 'cancelled'))),
          ),
          ...(row === undefined ? [] : [eventWrite(row, 'cancelled')]),
        ]);
        if ((cancelled?.changed ?? 0) > 0) return (stored?.changed ?? 0) > 0 && row !== undefined ? { batch, delivery: row } : { batch };
      }
    },
    async openBatchIds() {
      return (await db.selectFrom('batches').select('id').where('status', 'in', OPEN).execute()).map((row) => row.id);
    },
    async unfinishedItems() {
      const rows = await db
        .selectFrom('batch_items as i')
        .innerJoin('batches as b', 'b.id', 'i.batch_id')
        .selectAll('i')
        .where('b.status', 'in', OPEN)
        .where('i.status', 'in', ['pending', 'running'])
        .orderBy('b.created_at')
        .orderBy('i.idx')
        .execute();
      return rows.map(toItem);
    },
  };
}
