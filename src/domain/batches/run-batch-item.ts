import type { JobRun } from '../../ports/job-queue.js';
import type { Deps } from '../context.js';
import { inSpan } from '../../ports/tracer.js';
import { runGeneration } from '../generations/run-generation.js';
import { batchGeneration } from './batch-generation.js';
import { finishBatch } from './finish-batch.js';
import type { ProviderSlots } from './provider-slots.js';

export { finishBatch } from './finish-batch.js';

const ONLY_RUN: JobRun = { attempt: 1, lastAttempt: true };

/**
 * One prompt of a batch, as a queue job: the prompt's generation, run by the same code as any generation (see
 * runGeneration), its ending settling the prompt and the batch's counters in the same unit of work. Safe to run again
 * after a crash: the image id was fixed at acceptance and a rerun never pays twice.
 *
 * A prompt of a batch accepted before batches were generations has none yet: it gets one here, once.
 * With `slots`, at most their size of prompts call their provider at once (BATCH_CONCURRENCY), while more may be
 * planning ahead of their turn or storing and recording an answer.
 */
export function runBatchItem(deps: Deps, batchId: string, idx: number, run: JobRun = ONLY_RUN, slots?: ProviderSlots): Promise<void> {
  return inSpan('batch.item', { attributes: { 'imagegate.batch.id': batchId, 'imagegate.batch.item': idx, 'imagegate.job.attempt': run.attempt } }, () =>
    runItem(deps, batchId, idx, run, slots),
  );
}

async function runItem(deps: Deps, batchId: string, idx: number, run: JobRun, slots: ProviderSlots | undefined): Promise<void> {
  const batch = await deps.db.batches.findAny(batchId);
  if (batch === undefined || (batch.status !== 'queued' && batch.status !== 'processing')) return;
  const item = await deps.db.batches.item(batchId, idx);
  if (item === undefined) return;
  let generationId = item.generation_id;
  if (generationId === null) {
    if (item.status !== 'pending' && item.status !== 'running') return finishBatch(deps, batchId);
    generationId = (await deps.db.generations.ensureForBatchItem(batchGeneration(batch, item, deps.ids.newId('gen')))).id;
  }
  await runGeneration(deps, generationId, run, slots);
}
