import { pendingDelivery } from './delivery-record.js';
import type { DeliveryFactory } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { batchImages } from '../batches/batch-record.js';
import { enqueueJob, jobId } from '../jobs.js';

/**
 * The outbox row for a batch's final event, stored by the unit of work that makes the batch final. A batch has one
 * final event, so its id derives from the batch's: a second finisher racing the first stores nothing more.
 */
export function batchEventDelivery(deps: Pick<Deps, 'blobs' | 'clock'>): DeliveryFactory {
  return (batch, items) => {
    if (batch.webhook_url === null) return undefined;
    const event = batch.status === 'cancelled' ? 'batch.cancelled' : 'batch.completed';
    const payload = {
      event,
      batch_id: batch.id,
      status: batch.status,
      total_prompts: batch.total_prompts,
      completed_count: batch.completed_count,
      failed_count: batch.failed_count,
      images: batchImages(batch, items, deps.blobs),
    };
    const now = deps.clock.now().toISOString();
    return pendingDelivery({ batch_id: batch.id, generation_id: null }, { id: `msg_${batch.id}`, event, url: batch.webhook_url, payload }, now);
  };
}

/** Queues the first attempt; the job id makes a repeated call (recovery after a crash) harmless. */
export async function scheduleFirstAttempt(deps: Pick<Deps, 'queue' | 'clock' | 'batchSettings'>, deliveryId: string): Promise<void> {
  const delay = (deps.batchSettings.retryScheduleSeconds[0] ?? 0) * 1000;
  await enqueueJob(deps.queue, 'webhook', { deliveryId }, { id: jobId('webhook', deliveryId, 1), runAt: new Date(deps.clock.now().getTime() + delay) });
}
