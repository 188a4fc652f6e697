import type { VerbArgs } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { batchEventDelivery, scheduleFirstAttempt } from '../webhooks/batch-event.js';
import { toBatchRecord, type BatchRecord } from './batch-record.js';

/** Pending prompts are dropped, finished images stay, and a `batch.cancelled` event goes out. */
export async function cancelBatch({ deps, ctx, input }: VerbArgs<{ batchId: string }>): Promise<BatchRecord> {
  const result = await deps.db.batches.cancel(ctx.userId, input.batchId, deps.clock.now().toISOString(), batchEventDelivery(deps));
  if (result === undefined) {
    const batch = await deps.db.batches.find(ctx.userId, input.batchId);
    if (batch === undefined) throw notFound('Batch', 'batch_id', input.batchId);
    throw new ApiError('CONFLICT', 'Batch already finished', {
      batch_id: batch.id,
      status: batch.status,
      message: `a ${batch.status} batch cannot be cancelled`,
    });
  }
  if (result.delivery !== undefined) await scheduleFirstAttempt(deps, result.delivery.id);
  deps.logger.info({ requestId: ctx.requestId, batchId: input.batchId }, 'batch cancelled');
  return toBatchRecord(result.batch);
}
