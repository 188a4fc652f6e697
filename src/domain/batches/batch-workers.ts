import type { Deps } from '../context.js';
import { processJobs } from '../jobs.js';
import { makeImageThumbnails } from '../images/image-thumbnails.js';
import { reconcileBlobs } from '../images/reconcile-blobs.js';
import { deliverWebhook } from '../webhooks/deliver-webhook.js';
import { sweepBatches } from './batch-sweeper.js';
import { createProviderSlots } from './provider-slots.js';
import { runBatchItem } from './run-batch-item.js';
import { runGeneration } from '../generations/run-generation.js';

/** Webhook deliveries are small and mostly waiting on the network; a few at once is plenty. */
const WEBHOOK_CONCURRENCY = 4;
/**
 * Generations a process runs at once. Mostly waiting on providers, whose own limits (PROVIDER_MAX_CONCURRENCY per
 * provider) bound the calls; this only keeps a flood of accepted generations from all planning at once.
 */
const GENERATION_CONCURRENCY = 64;

export interface BatchWorkerOptions {
  /**
   * Also removes, this often, objects stored without a record (an item whose record failed and that then
   * failed for good), older than the grace; the start-up pass is the caller's. Off when absent.
   */
  reconcile?: { intervalMs: number; graceSeconds: number };
}

export interface BatchWorkers {
  /** Stops the periodic sweeps and waits for one under way; the queue's own close stops the jobs. */
  stop(): Promise<void>;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Starts the batch and webhook workers after queueing again whatever a stopped process left unfinished,
 * then sweeps every `batchSettings.sweepIntervalMs` for work an outage left without a job.
 */
export async function startBatchWorkers(deps: Deps, options: BatchWorkerOptions = {}): Promise<BatchWorkers> {
  await sweepBatches(deps);
  registerJobHandlers(deps);

  const stoppers = [every(deps.batchSettings.sweepIntervalMs, () => sweep(deps))];
  const { reconcile } = options;
  if (reconcile !== undefined) stoppers.push(every(reconcile.intervalMs, () => sweepOrphans(deps, reconcile)));
  return { stop: async () => void (await Promise.all(stoppers.map((stop) => stop()))) };
}

/**
 * The handlers of the batch-item and webhook jobs, on the deps' queue: what every runtime runs jobs with. Node
 * starts them with sweeps beside them (startBatchWorkers); Workers registers them for its Queue consumer and sweeps
 * from a Cron Trigger.
 */
export function registerJobHandlers(deps: Deps): void {
  // BATCH_CONCURRENCY bounds the provider calls. Each of those prompts may have one more job beside it, planned
  // and waiting for its slot, or storing and recording its answer: the next call starts the moment an answer
  // comes, not after the bookkeeping of the one before. The queue waits for all of them at shutdown.
  const { concurrency } = deps.batchSettings;
  const slots = createProviderSlots(concurrency);
  processJobs(deps.queue, 'batch-item', { concurrency: 2 * concurrency, logger: deps.logger }, ({ batchId, idx }, run) => {
    // Its answer will need the codec: a cold one starts while the provider works, not when the first answers come
    // (about 150 ms of CPU that delayed a batch's first waves, profiled). A task later, so no call waits on it.
    setTimeout(() => deps.codec.warm?.(), 0);
    return runBatchItem(deps, batchId, idx, run, slots);
  });
  registerGenerationJobs(deps);
  processJobs(deps.queue, 'webhook', { concurrency: WEBHOOK_CONCURRENCY, logger: deps.logger }, ({ deliveryId }) => deliverWebhook(deps, deliveryId));
}

/** Thumbnails a process makes at once: each is a decode in the CPU pool, so more would only wait there. */
const THUMBNAIL_CONCURRENCY = 2;

/** Runs generation jobs (POST /api/generate, /v1, MCP) and the thumbnails of their images: a process that accepts generations and runs no other jobs may run these alone. */
export function registerGenerationJobs(deps: Deps): void {
  processJobs(deps.queue, 'generation', { concurrency: GENERATION_CONCURRENCY, logger: deps.logger }, ({ generationId }, run) =>
    runGeneration(deps, generationId, run),
  );
  // The thumbnails of what those generations made; the CPU pool serves their decodes in turn with every other task.
  processJobs(deps.queue, 'thumbnails', { concurrency: THUMBNAIL_CONCURRENCY, logger: deps.logger }, (payload) => makeImageThumbnails(deps, payload));
}

async function sweep(deps: Deps): Promise<void> {
  try {
    const report = await sweepBatches(deps);
    deps.logger.debug({ ...report }, 'batch sweep: unfinished work queued again where its job was missing');
  } catch (error) {
    deps.logger.warn({ err: messageOf(error), nextInMs: deps.batchSettings.sweepIntervalMs }, 'batch sweep failed; it runs again at the next interval');
  }
}

/**
 * Every worker process wakes each interval; the one that claims the interval's window in the database (an atomic
 * compare-and-set) sweeps, the others go back to sleep: one sweep per interval across the fleet.
 */
export async function sweepOrphans(deps: Deps, reconcile: { intervalMs: number; graceSeconds: number }): Promise<void> {
  const window = Math.floor(deps.clock.now().getTime() / reconcile.intervalMs);
  let claimed: boolean;
  try {
    // Zero-padded, so the stored text sorts as the number does.
    claimed = await deps.db.settings.advance('orphan-sweep-window', String(window).padStart(16, '0'));
  } catch (error) {
    deps.logger.warn({ err: messageOf(error) }, 'could not claim the sweep of objects stored without a record; tries again at the next interval');
    return;
  }
  if (claimed) await reconcileQuietly(deps, reconcile.graceSeconds);
}

async function reconcileQuietly(deps: Deps, graceSeconds: number): Promise<void> {
  try {
    await reconcileBlobs(deps, { graceSeconds });
  } catch (error) {
    deps.logger.warn({ err: messageOf(error) }, 'could not clean objects stored without a record; tries again at the next interval');
  }
}

/** Runs `task` every `ms`, never two at once, on a timer that keeps no process alive; the stopper waits for a run under way. */
function every(ms: number, task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= task().finally(() => (running = undefined));
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
