import type { Deps } from '../context.js';
import { batchEventDelivery, scheduleFirstAttempt } from '../webhooks/batch-event.js';

/** Completes the batch once nothing is left to run; the event is stored with that change and then queued. */
export async function finishBatch(deps: Deps, batchId: string): Promise<void> {
  const { finished, delivery } = await deps.db.batches.finishIfDone(batchId, deps.clock.now().toISOString(), batchEventDelivery(deps));
  if (finished) deps.logger.info({ batchId }, 'batch completed');
  if (delivery !== undefined) await scheduleFirstAttempt(deps, delivery.id);
}
