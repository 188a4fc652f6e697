import type { Deps } from '../context.js';
import { enqueueJob, enqueueJobs, jobId } from '../jobs.js';
import { cancelPastDeadline } from '../generations/end-generation.js';
import { generationJob } from '../generations/generation-job.js';
import { finishBatch } from './run-batch-item.js';

export interface SweepReport {
  /** Unfinished items of open batches, each queued again unless its job is queued or running. */
  items: number;
  /** Pending webhook deliveries, each with its next attempt queued again likewise. */
  deliveries: number;
  /** Open batches checked for having nothing left to run. */
  batches: number;
  /** Generations left queued or running, each queued again unless its job is queued or running. */
  generations: number;
  /** Generations still queued past their deadline_seconds, cancelled without running. */
  expiredGenerations: number;
}

/** Generations put back per sweep at most: a backlog larger than this is taken in turn, sweep after sweep. */
const GENERATIONS_PER_SWEEP = 1_000;

/**
 * Puts back in the queue whatever an outage or a stopped process left without a job: pending items whose
 * job was never added or failed for good, `running` items whose job is gone, deliveries whose next attempt
 * was never queued, and batches whose last item finished while finishing them failed. Job ids are fixed
 * by what they run, so an item whose job is still queued or running is left alone (a failed one is
 * revived), and every step may run any number of times, in any number of processes.
 */
export async function sweepBatches(deps: Deps): Promise<SweepReport> {
  const items = await deps.db.batches.unfinishedItems();
  // All at once: a batch of thousands of prompts would otherwise take one statement each, every sweep.
  await enqueueJobs(
    deps.queue,
    'batch-item',
    items.map((item) => ({
      payload: { batchId: item.batch_id, idx: item.idx },
      options: { id: jobId('batch-item', item.batch_id, item.idx), reviveFailed: true },
    })),
  );
  const deliveries = await deps.db.webhookOutbox.pendingDeliveries();
  for (const delivery of deliveries) {
    const runAt = delivery.next_attempt_at === null ? undefined : new Date(delivery.next_attempt_at);
    await enqueueJob(
      deps.queue,
      'webhook',
      { deliveryId: delivery.id },
      { id: jobId('webhook', delivery.id, delivery.attempts + 1), runAt, reviveFailed: true },
    );
  }
  const batches = await deps.db.batches.openBatchIds();
  for (const batchId of batches) await finishBatch(deps, batchId);
  const unfinished = await deps.db.generations.unfinished(deps.clock.now().toISOString(), GENERATIONS_PER_SWEEP);
  // One still queued past its deadline is ended here rather than run: no worker may be free to see it for a while.
  const expired = new Set<string>();
  for (const generation of unfinished) if (await cancelPastDeadline(deps, generation)) expired.add(generation.id);
  const generations = unfinished.filter((generation) => !expired.has(generation.id));
  await enqueueJobs(
    deps.queue,
    'generation',
    generations.map((generation) => generationJob(generation, { reviveFailed: true })),
  );
  return { items: items.length, deliveries: deliveries.length, batches: batches.length, generations: generations.length, expiredGenerations: expired.size };
}
