import type { BatchItemRow, BatchRow } from '../../ports/database.js';
import { JobHandedBack, type JobRun } from '../../ports/job-queue.js';
import type { Deps, RequestContext } from '../context.js';
import { planGeneration, type GenerationPlan } from '../images/plan-generation.js';
import { renderImage, type RenderedImage } from '../images/render-image.js';
import { settleQuietly } from '../charges/open-charge.js';
import { ApiError } from '../errors.js';
import { looksLikeInfrastructure } from '../infrastructure-failure.js';
import { batchEventDelivery, scheduleFirstAttempt } from '../webhooks/batch-event.js';
import { inSpan } from '../../ports/tracer.js';
import { releasingOnAnswer, type ProviderSlots, type ReleaseSlot } from './provider-slots.js';

const ONLY_RUN: JobRun = { attempt: 1, lastAttempt: true };

/**
 * One prompt of a batch, as a queue job. Safe to run again after a crash: the image id was fixed at
 * acceptance, the object is overwritten in place, and the record is written once, with the item's state.
 *
 * What the prompt itself earned (a refusal, a budget, a bad parameter: an ApiError) is recorded as the
 * item's failure. When the service failed under it instead (database, Redis, blob store), nothing is
 * recorded and this throws, so the queue runs it again with backoff; that includes a failure to record
 * the failure. A rerun never pays twice: renderImage resumes the earlier charge of this image id.
 *
 * With `slots`, at most their size of prompts call their provider at once, while more may be planning ahead of
 * their turn or storing and recording an answer (see startAndRender).
 */
export function runBatchItem(deps: Deps, batchId: string, idx: number, run: JobRun = ONLY_RUN, slots?: ProviderSlots): Promise<void> {
  return inSpan('batch.item', { attributes: { 'imagegate.batch.id': batchId, 'imagegate.batch.item': idx, 'imagegate.job.attempt': run.attempt } }, () => runItem(deps, batchId, idx, run, slots));
}

async function runItem(deps: Deps, batchId: string, idx: number, run: JobRun, slots: ProviderSlots | undefined): Promise<void> {
  const batch = await deps.db.batches.findAny(batchId);
  if (batch === undefined || (batch.status !== 'queued' && batch.status !== 'processing')) return;
  const item = await deps.db.batches.item(batchId, idx);
  if (item === undefined) return;
  // Planned while earlier prompts still hold every slot: it reads and checks, calls no one and costs nothing.
  // Its failure is the prompt's, recorded once the prompt has started, as any other.
  const planned = await planGeneration(deps, batch.user_id, { ...batch.parameters, prompt: item.prompt, model: batch.model, template_id: batch.template_id ?? undefined }).then(
    (plan): Planned => ({ plan }),
    (error: unknown): Planned => ({ error }),
  );
  const step = await startAndRender(deps, batch, item, planned, slots, run.closing);
  if (!step.started) return finishBatch(deps, batchId);

  try {
    if ('error' in step) throw step.error;
    const { row, charge } = step.rendered;
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

type Planned = { plan: GenerationPlan } | { error: unknown };
type Step = { started: false } | { started: true; rendered: RenderedImage } | { started: true; error: unknown };

/**
 * Takes a provider slot, starts the prompt and renders it. The slot is held from the start (so a prompt cancelled
 * meanwhile is never sent, and no charge is reserved for a call still waiting its turn) until the provider
 * answers, or the prompt stops short of calling it; storing and recording the answer happen without it. A
 * failure to start (the database) is thrown for the queue to retry; anything after is the prompt's, returned.
 * At shutdown, a prompt still waiting for its slot is handed back to the queue untouched.
 */
async function startAndRender(deps: Deps, batch: BatchRow, item: BatchItemRow, planned: Planned, slots: ProviderSlots | undefined, closing: AbortSignal | undefined): Promise<Step> {
  const release = slots === undefined ? NO_SLOT : await slots.acquire(closing);
  // The worker is stopping before this prompt's turn came: nothing was started, reserved or sent, so the job goes back as it was.
  if (release === undefined || closing?.aborted === true) {
    release?.();
    throw new JobHandedBack(`the worker stopped before prompt ${item.idx} of batch ${batch.id} had its turn`);
  }
  try {
    if (!(await deps.db.batches.startItem(batch.id, item.idx, deps.clock.now().toISOString()))) return { started: false };
    try {
      const ctx = await batchContext(deps, batch, `${batch.id}#${item.idx}`);
      if (!('plan' in planned)) throw planned.error;
      // Resumed: a crashed earlier run of this prompt may have a provider job in flight, followed rather than paid again.
      return { started: true, rendered: await renderImage({ ...deps, providers: releasingOnAnswer(deps.providers, release) }, ctx, planned.plan, item.image_id, true) };
    } catch (error) {
      return { started: true, error };
    }
  } finally {
    release();
  }
}

const NO_SLOT: ReleaseSlot = () => undefined;

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
