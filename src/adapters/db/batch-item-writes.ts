import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { BatchItemRef, Database } from '../../ports/database.js';
import type { Write } from '../../ports/db/unit-of-work.js';
import type { DatabaseSchema } from './schema.js';
import { writeOf } from './unit-of-work.js';

const OPEN_ITEMS = ['pending', 'running'];

/**
 * The writes by which a generation that runs a batch's prompt moves that prompt, in the generation's own unit of
 * work. Every one is guarded by `applies` (the generation's own change applies) and comes before the generation's
 * write, which the caller puts last and reads the outcome of.
 */
export function batchItemWrites(db: Kysely<DatabaseSchema>, dialect: Database['dialect']) {
  /**
   * On PostgreSQL the batch row is locked first, as every writer of a batch and its items does (see the batches
   * repository): in another order a prompt ending and a user cancelling the batch could deadlock.
   */
  const lock = (item: BatchItemRef): Write[] =>
    dialect === 'postgres' ? [writeOf('batches: the batch row lock', db.selectFrom('batches').select('id').where('id', '=', item.batchId).forUpdate())] : [];
  const itemIs = (item: BatchItemRef, statuses: readonly string[]) =>
    sql<boolean>`exists (select 1 from batch_items where batch_id = ${item.batchId} and idx = ${item.idx} and status in (${sql.join(statuses)}))`;

  return {
    /** The prompt starts with its generation (and the batch turns processing with its first prompt); a prompt the batch's cancel dropped starts nothing. */
    start(item: BatchItemRef, at: string, applies: RawBuilder<boolean>): Write[] {
      return [
        ...lock(item),
        writeOf(
          'batches.startItem: the batch',
          db
            .updateTable('batches')
            .set({ status: 'processing', updated_at: at })
            .where('id', '=', item.batchId)
            .where('status', '=', 'queued')
            .where(applies)
            .where(itemIs(item, OPEN_ITEMS)),
        ),
        writeOf(
          'batches.startItem',
          db
            .updateTable('batch_items')
            .set({ status: 'running', updated_at: at })
            .where('batch_id', '=', item.batchId)
            .where('idx', '=', item.idx)
            .where('status', 'in', OPEN_ITEMS)
            .where(applies)
            .where((eb) => eb.exists(eb.selectFrom('batches').select('id').where('id', '=', item.batchId).where('status', '=', 'processing'))),
        ),
      ];
    },
    /** What makes the generation's start apply to a batch's prompt: the prompt is running (just started, or by an earlier run). */
    started: (item: BatchItemRef): RawBuilder<boolean> => itemIs(item, ['running']),
    /**
     * The prompt settles once, with the batch's counter: `succeeded` or `failed` count; `cancelled` (a prompt cancelled
     * on its own while queued) counts in neither, as the prompts a batch's cancel drops.
     */
    settle(item: BatchItemRef, status: 'succeeded' | 'failed' | 'cancelled', at: string, applies: RawBuilder<boolean>): Write[] {
      const unsettled = itemIs(item, OPEN_ITEMS);
      const counter = status === 'succeeded' ? 'completed_count' : status === 'failed' ? 'failed_count' : undefined;
      return [
        ...lock(item),
        ...(counter === undefined
          ? []
          : [
              writeOf(
                `batches.settle: ${counter}`,
                db
                  .updateTable('batches')
                  .set((eb) => ({ [counter]: eb(counter, '+', 1), updated_at: at }))
                  .where('id', '=', item.batchId)
                  .where(applies)
                  .where(unsettled),
              ),
            ]),
        writeOf(
          'batches.settle: the item',
          db
            .updateTable('batch_items')
            .set({ status, error: status === 'failed' ? (item.error ?? null) : null, updated_at: at })
            .where('batch_id', '=', item.batchId)
            .where('idx', '=', item.idx)
            .where('status', 'in', OPEN_ITEMS)
            .where(applies),
        ),
      ];
    },
  };
}
