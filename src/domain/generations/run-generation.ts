import type { GenerationRow, RunClaim } from '../../ports/database.js';
import type { PartialImage } from '../../ports/image-provider.js';
import { JobHandedBack, type JobRun } from '../../ports/job-queue.js';
import type { Deps } from '../context.js';
import { ApiError } from '../errors.js';
import { toImageRecord } from '../images/image-record.js';
import { planGeneration, type GenerationPlan } from '../images/plan-generation.js';
import { queueThumbnails } from '../images/image-thumbnails.js';
import { renderImage } from '../images/render-image.js';
import { looksLikeInfrastructure } from '../infrastructure-failure.js';
import { keyContextFor } from '../keys/key-context.js';
import { inSpan } from '../../ports/tracer.js';
import { generationEventDelivery, scheduleGenerationEvent } from '../webhooks/generation-event.js';
import { batchItemOf } from '../batches/batch-generation.js';
import { finishBatch } from '../batches/finish-batch.js';
import { releasingOnAnswer, type ProviderSlots, type ReleaseSlot } from '../batches/provider-slots.js';
import { cancelPastDeadline, endGeneration } from './end-generation.js';
import { CANCELLED_BY_CALLER, failureOf } from './generation-failure.js';
import { followProgress } from './generation-progress.js';
import { publish } from './generation-record.js';

const ONLY_RUN: JobRun = { attempt: 1, lastAttempt: true };

const INTERNAL_FAILURE = new ApiError('GENERATION_FAILED', 'Image generation failed', {
  message: 'the generation failed on an internal error (the server log has the details)',
});

/**
 * Runs one accepted generation, as its queue job: a single one (POST /api/generate, /v1, MCP, the CLI) or a batch's
 * prompt. Safe to run again after a crash or a failed write: the image id was fixed at acceptance, the answer is
 * stored under it and journaled on its charge before the record is written, so a second run records that answer
 * instead of calling the provider again (renderImage with resume).
 *
 * What the request itself earned (a refusal, a budget, a bad parameter: an ApiError) ends the generation `failed`
 * with that error. When the service failed under it (database, Redis, storage), nothing is recorded and this throws,
 * so the queue runs it again. A cancel asked for while it runs aborts the provider call, wherever the job runs.
 *
 * With `slots` (a batch's prompts: BATCH_CONCURRENCY), it plans first, then waits for a slot, held from its start
 * until its provider answers: a prompt cancelled meanwhile is never sent, and storing and recording an answer never
 * keep the next prompt from calling. At shutdown, one still waiting for its slot is handed back to the queue untouched.
 */
export function runGeneration(deps: Deps, generationId: string, run: JobRun = ONLY_RUN, slots?: ProviderSlots): Promise<void> {
  return inSpan('generation.run', { attributes: { 'imagegate.generation.id': generationId, 'imagegate.job.attempt': run.attempt } }, () =>
    runIt(deps, generationId, run, slots),
  );
}

type Planned = { plan: GenerationPlan } | { error: unknown };

async function runIt(deps: Deps, generationId: string, run: JobRun, slots: ProviderSlots | undefined): Promise<void> {
  const row = await deps.db.generations.findAny(generationId);
  if (row === undefined) return;
  if (row.status !== 'queued' && row.status !== 'running') return finished(deps, row);
  if (row.cancel_requested_at !== null) {
    await endGeneration(deps, row, 'cancelled', CANCELLED_BY_CALLER);
    return finished(deps, row);
  }
  // Checked before it starts, and only then: once started, the provider may bill it whatever the deadline says.
  if (await cancelPastDeadline(deps, row)) return;
  // Planned while earlier prompts hold every slot: it reads and checks, calls no one and costs nothing. Its failure
  // is the generation's, recorded once it has started.
  const planned = await planGeneration(deps, row.user_id, row.request).then(
    (plan): Planned => ({ plan }),
    (error: unknown): Planned => ({ error }),
  );
  const release = slots === undefined ? NO_SLOT : await slots.acquire(run.closing);
  if (release === undefined || run.closing?.aborted === true) {
    release?.();
    throw new JobHandedBack(`the worker stopped before generation ${row.id} had its turn`);
  }
  try {
    const started = generationEventDelivery(deps, row, 'generation.started');
    const claim = { token: deps.ids.newId('run'), until: claimUntil(deps) };
    if (!(await deps.db.generations.start(row.id, deps.clock.now().toISOString(), claim, started, batchItemOf(row)))) return await notStarted(deps, row);
    await publish(deps, 'generation.started', row.id);
    await scheduleGenerationEvent(deps, started);
    try {
      await followingCancels(deps, row, claim, (signal) =>
        renderAndRecord(deps, row, planned, release, signal).catch((error: unknown) => endFailed(deps, row, run, error, signal.aborted)),
      );
    } finally {
      // Ended, or thrown for a retry: the next run starts at once. Unreleased (the database away), it lapses by itself.
      await deps.db.generations.releaseClaim(row.id, claim.token).catch(() => undefined);
    }
  } finally {
    release();
  }
  await finished(deps, row);
}

const NO_SLOT: ReleaseSlot = () => undefined;

/**
 * How long a run's claim holds unless renewed, and how often a live run renews it. A run that stops (a crash, a
 * killed process) is taken over at most CLAIM_MS later; a live one renews it well before then.
 */
const CLAIM_MS = 20_000;
const CLAIM_RENEW_MS = 5_000;
const claimUntil = (deps: Deps): string => new Date(deps.clock.now().getTime() + CLAIM_MS).toISOString();

/** Thrown for the queue to run the job later: another run of this generation (a lapsed queue lease) holds it now. */
export class GenerationClaimed extends Error {
  constructor(generationId: string) {
    super(`generation ${generationId} is being run by another worker; this run of its job waits and tries again`);
    this.name = 'GenerationClaimed';
  }
}

/**
 * It did not start: ended (here or elsewhere), or cancelled, or another live run holds it. That last one is never
 * taken over, whatever its queue says: a second provider call, or failing a call still being made, would cost money.
 */
async function notStarted(deps: Deps, row: GenerationRow): Promise<void> {
  const now = await deps.db.generations.findAny(row.id);
  if (now?.status === 'running' && now.cancel_requested_at === null) {
    deps.logger.info({ generationId: row.id }, 'generation is held by another run of its job; retried later');
    throw new GenerationClaimed(row.id);
  }
  await finished(deps, row);
}

/** A batch's prompt that ended (here or elsewhere) may have been its batch's last. */
const finished = async (deps: Deps, row: GenerationRow): Promise<void> => {
  if (row.batch_id !== null) await finishBatch(deps, row.batch_id);
};

/** How often a running generation reads whether its cancel was asked for elsewhere. */
const CANCEL_CHECK_MS = 2_000;

/**
 * Runs `work` with a signal aborted once a cancel of the generation is asked for, by an event or, without one, in its
 * row; and renews the run's claim meanwhile.
 */
async function followingCancels(deps: Deps, row: GenerationRow, claim: RunClaim, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const cancel = new AbortController();
  const stop = () => cancel.abort(new Error('the generation was cancelled'));
  const unsubscribe = await deps.events.subscribe(row.id, (event) => {
    if (event.type === 'generation.cancel_requested') stop();
  });
  // A cancel asked for in a process whose events do not reach this one (no Redis) is seen in the row.
  const watch = setInterval(() => {
    deps.db.generations.findAny(row.id).then(
      (now) => (now?.cancel_requested_at === null ? undefined : stop()),
      () => undefined,
    );
  }, CANCEL_CHECK_MS);
  // A failed renewal (the database away) is tried again next time; the claim outlasts a few of them.
  const renew = setInterval(() => {
    deps.db.generations.renewClaim(row.id, { token: claim.token, until: claimUntil(deps) }).catch(() => undefined);
  }, CLAIM_RENEW_MS);
  try {
    await work(cancel.signal);
  } finally {
    clearInterval(watch);
    clearInterval(renew);
    unsubscribe();
  }
}

async function renderAndRecord(deps: Deps, row: GenerationRow, planned: Planned, release: ReleaseSlot, signal: AbortSignal): Promise<void> {
  // Charged to the key that asked for it (for a batch's prompt, the key that created the batch), with its budgets as they are now.
  // A batch's prompt logs as `<batch>#<index>`, as it always has: an operator greps a batch's lines by its id.
  const requestId = row.batch_id === null ? row.id : `${row.batch_id}#${String(row.batch_idx)}`;
  const ctx = { ...(await keyContextFor(deps, row.user_id, row.key_id, requestId)), signal };
  if (!('plan' in planned)) throw planned.error;
  // Partials go to whoever watches the generation (its SSE, a /v1 stream): hints like every event, never recorded.
  const onPartial = (partial: PartialImage) => void publish(deps, 'generation.partial_image', row.id, { index: partial.index, b64_json: partial.b64_json });
  const providers = release === NO_SLOT ? deps.providers : releasingOnAnswer(deps.providers, release);
  // Always resumable: a first run finds no earlier charge of its image id and reserves one as usual.
  const progress = followProgress(deps, row.id);
  const { row: image, charge } = await renderImage({ ...deps, providers }, ctx, planned.plan, row.image_id, true, onPartial, progress.report).finally(
    progress.stop,
  );
  // A failed write (the database down) is thrown for the queue to run it again: the answer is stored and journaled on
  // its charge, which stays reserved, so the next run records it without calling the provider.
  const event = generationEventDelivery(deps, row, 'generation.completed', { image });
  if (!(await deps.db.generations.succeed(row.id, image, deps.clock.now().toISOString(), charge, event, batchItemOf(row)))) return;
  await publish(deps, 'generation.completed', row.id, { image: toImageRecord(image, deps.blobs) });
  await scheduleGenerationEvent(deps, event);
  // Queued once the caller has its answer: making them is ~40 ms of CPU per 1024x1024 image the caller need not wait for.
  await queueThumbnails(deps, image);
}

async function endFailed(deps: Deps, row: GenerationRow, run: JobRun, error: unknown, cancelled: boolean): Promise<void> {
  if (cancelled) {
    // Stopped at the caller's request: its charge was settled as the provider bills a call cut off there.
    await endGeneration(deps, row, 'cancelled', CANCELLED_BY_CALLER);
    return;
  }
  const ownFailure = error instanceof ApiError && !looksLikeInfrastructure(error);
  if (!ownFailure && (!run.lastAttempt || looksLikeInfrastructure(error))) {
    deps.logger.warn(
      {
        generationId: row.id,
        batchId: row.batch_id ?? undefined,
        attempt: run.attempt,
        lastAttempt: run.lastAttempt,
        err: error instanceof Error ? error.message : String(error),
      },
      run.lastAttempt
        ? 'generation failed on the infrastructure on its last attempt; a sweep queues it again'
        : 'generation failed on the infrastructure; its job runs again',
    );
    // An outage may last: whoever waits is told to follow the generation instead. A bug's retry comes at once.
    if (looksLikeInfrastructure(error)) await publish(deps, 'generation.retrying', row.id, { attempt: run.attempt });
    throw error;
  }
  if (!ownFailure)
    deps.logger.error(
      { generationId: row.id, attempt: run.attempt, err: error instanceof Error ? error.message : String(error) },
      'generation failed on an unexpected error on its last attempt; recorded as failed',
    );
  await endGeneration(deps, row, 'failed', failureOf(ownFailure ? error : INTERNAL_FAILURE));
}
