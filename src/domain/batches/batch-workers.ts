import type { Deps } from '../context.js';
import { enqueueJob, jobId, processJobs } from '../jobs.js';
import { deliverWebhook } from '../webhooks/deliver-webhook.js';
import { finishBatch, runBatchItem } from './run-batch-item.js';

/** Webhook deliveries are small and mostly waiting on the network; a few at once is plenty. */
const WEBHOOK_CONCURRENCY = 4;

/** Starts the batch and webhook workers, after queueing again whatever a stopped process left unfinished. */
export async function startBatchWorkers(deps: Deps): Promise<void> {
  for (const item of await deps.db.batches.unfinishedItems()) {
    await enqueueJob(deps.queue, 'batch-item', { batchId: item.batch_id, idx: item.idx }, { id: jobId('batch-item', item.batch_id, item.idx) });
  }
  for (const delivery of await deps.db.webhookOutbox.pendingDeliveries()) {
    const runAt = delivery.next_attempt_at === null ? undefined : new Date(delivery.next_attempt_at);
    await enqueueJob(deps.queue, 'webhook', { deliveryId: delivery.id }, { id: jobId('webhook', delivery.id, delivery.attempts + 1), runAt });
  }
  for (const batchId of await deps.db.batches.openBatchIds()) await finishBatch(deps, batchId);

  processJobs(deps.queue, 'batch-item', { concurrency: deps.batchSettings.concurrency, logger: deps.logger }, ({ batchId, idx }) => runBatchItem(deps, batchId, idx));
  processJobs(deps.queue, 'webhook', { concurrency: WEBHOOK_CONCURRENCY, logger: deps.logger }, ({ deliveryId }) => deliverWebhook(deps, deliveryId));
}
