import type { Deps } from '../context.js';
import { deliverWebhook } from '../webhooks/deliver-webhook.js';
import { WEBHOOK_QUEUE, deliveryJobId } from '../webhooks/batch-event.js';
import { BATCH_ITEM_QUEUE, batchItemJobId, finishBatch, runBatchItem } from './run-batch-item.js';

/** Webhook deliveries are small and mostly waiting on the network; a few at once is plenty. */
const WEBHOOK_CONCURRENCY = 4;

/** Starts the batch and webhook workers, after queueing again whatever a stopped process left unfinished. */
export async function startBatchWorkers(deps: Deps): Promise<void> {
  for (const item of await deps.db.batches.unfinishedItems()) {
    await deps.queue.enqueue(BATCH_ITEM_QUEUE, { batchId: item.batch_id, idx: item.idx }, { id: batchItemJobId(item.batch_id, item.idx) });
  }
  for (const delivery of await deps.db.webhookOutbox.pendingDeliveries()) {
    const runAt = delivery.next_attempt_at === null ? undefined : new Date(delivery.next_attempt_at);
    await deps.queue.enqueue(WEBHOOK_QUEUE, { deliveryId: delivery.id }, { id: deliveryJobId(delivery.id, delivery.attempts + 1), runAt });
  }
  for (const batchId of await deps.db.batches.openBatchIds()) await finishBatch(deps, batchId);

  deps.queue.process(BATCH_ITEM_QUEUE, deps.batchSettings.concurrency, async (payload) => {
    await runBatchItem(deps, String(payload.batchId), Number(payload.idx));
  });
  deps.queue.process(WEBHOOK_QUEUE, WEBHOOK_CONCURRENCY, async (payload) => {
    await deliverWebhook(deps, String(payload.deliveryId));
  });
}
