import type { BatchRow } from '../../ports/database.js';
import type { JobRun } from '../../ports/job-queue.js';
import type { Deps, RequestContext } from '../context.js';
import { planGeneration } from '../images/plan-generation.js';
import { renderImage } from '../images/render-image.js';
import { settleQuietly } from '../charges/open-charge.js';
import { ApiError } from '../errors.js';
import { looksLikeInfrastructure } from '../infrastructure-failure.js';
import { batchEventDelivery, scheduleFirstAttempt } from '../webhooks/batch-event.js';
import { inSpan } from '../../ports/tracer.js';

const ONLY_RUN: JobRun = { attempt: 1, lastAttempt: true };

/**
 * One prompt of a batch, as a queue job. Safe to run again after a crash: the image id was fixed at
 * acceptance, the object is overwritten in place, and the record is written once, with the item's state.
 *
 * What the prompt itself earned (a refusal, a budget, a bad parameter: an ApiError) is recorded as the
 * item's failure. When the service failed under it instead (database, Redis, blob store), nothing is
 * recorded and this throws, so the queue runs it again with backoff; that includes a failure to record
 * the failure. A rerun never pays twice: renderImage resumes the earlier charge of this image id.
 */
export function runBatchItem(deps: Deps, batchId: string, idx: number, run: JobRun = ONLY_RUN): Promise<void> {
  return inSpan('batch.item', { attributes: { 'imagegate.batch.id': batchId, 'imagegate.batch.item': idx, 'imagegate.job.attempt': run.attempt } }, () => runItem(deps, batchId, idx, run));
}

async function runItem(deps: Deps, batchId: string, idx: number, run: JobRun): Promise<void> {
  const batch = await deps.db.batches.findAny(batchId);
  if (batch === undefined || (batch.status !== 'queued' && batch.status !== 'processing')) return;
  const item = await deps.db.batches.item(batchId, idx);
  if (item === undefined) return;
  if (!(await deps.db.batches.startItem(batchId, idx, deps.clock.now().toISOString()))) return finishBatch(deps, batchId);

  try {
    const ctx = await batchContext(deps, batch, `${batchId}#${idx}`);
    const plan = await planGeneration(deps, batch.user_id, {
      ...batch.parameters,
      prompt: item.prompt,
      model: batch.model,
      template_id: batch.template_id ?? undefined,
    });
    // Resumed: a crashed earlier run of this prompt may have a provider job in flight, followed rather than paid again.
    const { row, charge } = await renderImage(deps, ctx, plan, item.image_id, true);
    try {
      await deps.db.batches.completeItem(batchId, idx, row, deps.clock.now().toISOString(), charge);
    } catch (error) {
      if (charge !== undefined) await settleQuietly(deps, { ...charge, outcome: 'charged_no_image', error: `the image could not be recorded: ${error instanceof Error ? error.message : String(error)}` });
      throw error;
    }
  } catch (error) {
    const message = failureMessage(error);
    // On the last run, an error that does not look like an outage is probably a bug: recorded, so the batch ends.
    const ownFailure = error instanceof ApiError && !looksLikeInfrastructure(error);
    const retried = !ownFailure && (!run.lastAttempt || looksLikeInfrastructure(error));
    if (retried) {
      deps.logger.warn(
        { batchId, idx, attempt: run.attempt, lastAttempt: run.lastAttempt, err: message },
        run.lastAttempt
          ? 'batch prompt failed on the infrastructure on its last attempt; the batch sweeper queues it again'
          : 'batch prompt failed on the infrastructure; its job will be retried after a backoff',
      );
      throw error;
    }
    if (!ownFailure) deps.logger.error({ batchId, idx, attempt: run.attempt, err: message }, 'batch prompt failed on an unexpected error on its last attempt; recorded as failed');
    const recorded = ownFailure ? message : 'the prompt failed on an internal error (the server log has the details)';
    await deps.db.batches.failItem(batchId, idx, recorded, deps.clock.now().toISOString());
  }
  await finishBatch(deps, batchId);
}

function failureMessage(error: unknown): string {
  const details = error instanceof Error && 'details' in error ? (error as { details?: { message?: unknown } }).details : undefined;
  return typeof details?.message === 'string' ? details.message : error instanceof Error ? error.message : String(error);
}

/**
 * The batch's items are charged to the key that created it, with that key's budgets as they are now (a budget
 * lowered mid-batch applies to the prompts still to run). A key deleted since charges nothing to anyone.
 */
async function batchContext(deps: Deps, batch: BatchRow, requestId: string): Promise<RequestContext> {
  const ctx: RequestContext = { userId: batch.user_id, requestId };
  if (batch.key_id === undefined || batch.key_id === null) return ctx;
  const key = await deps.db.apiKeys.find(batch.key_id);
  return { ...ctx, key: { id: batch.key_id, dailyBudgetUsd: key?.daily_budget_usd ?? null, monthlyBudgetUsd: key?.monthly_budget_usd ?? null } };
}

/** Completes the batch once nothing is left to run; the event is stored with that change and then queued. */
export async function finishBatch(deps: Deps, batchId: string): Promise<void> {
  const { finished, delivery } = await deps.db.batches.finishIfDone(batchId, deps.clock.now().toISOString(), batchEventDelivery(deps));
  if (finished) deps.logger.info({ batchId }, 'batch completed');
  if (delivery !== undefined) await scheduleFirstAttempt(deps, delivery.id);
}
