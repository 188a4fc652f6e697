import type { ChargeSettlement } from './charges.js';
import type { Page, PageRequest } from './common.js';
import type { ImageRow } from './images.js';
import type { WebhookDeliveryRow } from './webhook-outbox.js';

/**
 * - `queued`: accepted, waiting for a worker;
 * - `running`: a worker has started it (it may be planning, waiting on the provider, or storing the answer);
 * - `succeeded`: its image is recorded; `failed`: it ended with an error a caller can read;
 * - `cancelled`: cancelled while queued (never charged) or while running (charged as the provider bills it).
 */
export type GenerationStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export const FINAL_GENERATION_STATUSES: readonly GenerationStatus[] = ['succeeded', 'failed', 'cancelled'];

/** The error a caller waiting on a failed or cancelled generation gets, as the API's error body has it. */
/** The events a generation's webhook may be sent. */
export const GENERATION_WEBHOOK_EVENTS = ['generation.started', 'generation.completed', 'generation.failed', 'generation.cancelled'] as const;
export type GenerationWebhookEvent = (typeof GENERATION_WEBHOOK_EVENTS)[number];

export interface GenerationFailure {
  error: string;
  code: string;
  details?: unknown;
  /** Seconds, for a Retry-After header. */
  retry_after?: number;
}

export interface GenerationRow {
  id: string;
  user_id: string;
  /** The key that asked for it, whose budgets it is charged to; null without a key. */
  key_id: string | null;
  status: GenerationStatus;
  model: string;
  prompt: string;
  /** The request as accepted, with its seed fixed: planned again by the worker that runs it. */
  request: Record<string, unknown>;
  /** Owned from acceptance on, so a second run overwrites its own object and records its image once. */
  image_id: string;
  error: GenerationFailure | null;
  /** 0..1 where the provider reports it. */
  progress: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  cancel_requested_at: string | null;
  /** Where its events go (signed like a batch's), and which of them; null without a webhook. */
  webhook_url: string | null;
  webhook_events: GenerationWebhookEvent[] | null;
  /** Still queued after this, it is cancelled without running. */
  deadline_at: string | null;
  /**
   * When it runs a batch's prompt: that batch and the prompt's index. Its start starts the prompt, and its ending
   * settles the prompt and the batch's counters in the same unit of work.
   */
  batch_id: string | null;
  batch_idx: number | null;
  /**
   * Its round in the fair queue, given by `insert`: the queue runs lower ranks first, the oldest first among equal
   * ones, and its job's priority is this rank. A key's (or keyless user's) generations take consecutive rounds,
   * while another key's lands in the round being served: every key gets one start per round, whatever the backlog.
   */
  queue_rank: number;
}

/**
 * The batch prompt a generation runs, given to the writes that start and end it so they change the prompt (and the
 * batch's counters) in the same unit of work; `error` is the prompt's error text when it fails.
 */
export interface BatchItemRef {
  batchId: string;
  idx: number;
  error?: string;
}

/**
 * A run's hold on its generation: `token` names the run, `until` is when another run may take it over unless renewed.
 */
export interface RunClaim {
  token: string;
  until: string;
}

/** A generation as accepted, before it is recorded: its place in the queue is the repository's to give. */
export type NewGenerationRow = Omit<GenerationRow, 'queue_rank'>;

export interface GenerationFilter {
  status?: GenerationStatus;
}

export interface GenerationRepository {
  /**
   * Records a generation and ranks it, in one statement: the round its queue is serving (the highest rank running;
   * else the lowest queued; else 0 once nothing is open, so ranks stay small), or the round after its lane's last open
   * one (queued or running) when that is later. The lane is its key, or its user when it has none; single generations
   * and batches' prompts are two queues, ranked apart. Two inserts of one lane at once may share a rank: equal ranks
   * run oldest first. Returns the row as stored, with its rank.
   */
  insert(row: NewGenerationRow): Promise<GenerationRow>;
  /**
   * Records several generations (a batch's prompts) as `insert` would one after another: each lane's rows take
   * consecutive rounds after its last open one, in the order given. A few statements, however many rows.
   */
  insertMany(rows: readonly NewGenerationRow[]): Promise<GenerationRow[]>;
  find(userId: string, id: string): Promise<GenerationRow | undefined>;
  /** Any user's generation, for the worker that runs it. */
  findAny(id: string): Promise<GenerationRow | undefined>;
  /** The user's generations, newest first. */
  list(userId: string, filter: GenerationFilter, page: PageRequest): Promise<Page<GenerationRow>>;
  /**
   * queued -> running, under `claim` (a run after a crash finds it running with its claim lapsed, and takes it over);
   * false when it is final, its cancel was asked for, or another run's claim still holds at `at`.
   * `event` (its webhook's generation.started) is stored with it, once: its id is fixed, a second run stores nothing.
   */
  start(id: string, at: string, claim: RunClaim, event?: WebhookDeliveryRow, batchItem?: BatchItemRef): Promise<boolean>;
  /** Extends the claim while it is this run's and the generation runs; false once it is not (taken over, or ended). */
  renewClaim(id: string, claim: RunClaim): Promise<boolean>;
  /** Gives up the claim, if it is still this run's: a run ending (for a retry too) lets the next one start at once. */
  releaseClaim(id: string, token: string): Promise<void>;
  /**
   * Ends every run's claim, for the sole worker of its database (the embedded setup, restarted after a crash): the runs
   * that held them stopped with the process, and their generations are taken over at once instead of after CLAIM_MS.
   * Answers how many were released.
   */
  releaseAllClaims(): Promise<number>;
  /**
   * In one unit of work: the image recorded, the charge settled (when given), the webhook event stored (when given)
   * and the generation `succeeded`; each applies only while the generation is not final, so a second run records
   * nothing twice. False if it was final.
   */
  succeed(id: string, image: ImageRow, at: string, charge?: ChargeSettlement, event?: WebhookDeliveryRow, batchItem?: BatchItemRef): Promise<boolean>;
  /**
   * Ends a generation that is not final (with `onlyQueued`, one still queued) as `failed` or `cancelled`, with its
   * webhook event in the same unit of work; false if it was not in that state.
   */
  end(
    id: string,
    status: 'failed' | 'cancelled',
    failure: GenerationFailure,
    at: string,
    options?: { event?: WebhookDeliveryRow; onlyQueued?: boolean; batchItem?: BatchItemRef },
  ): Promise<boolean>;
  /**
   * A caller's cancel: a queued generation is cancelled at once (`cancelled`, with `event` stored in the same unit of
   * work); a running one is marked so its worker stops it (`requested`); a final one is left as it is (`final`).
   * Undefined when the user has no such generation. A batch's prompt cancelled while queued is cancelled with it.
   */
  requestCancel(
    userId: string,
    id: string,
    at: string,
    failure: GenerationFailure,
    event?: WebhookDeliveryRow,
  ): Promise<{ outcome: 'cancelled' | 'requested' | 'final'; row: GenerationRow } | undefined>;
  setProgress(id: string, progress: number): Promise<void>;
  /**
   * Its queue position: the queued generations of its queue (single generations, or batches' prompts), across every
   * user, that start before it as things stand (a lower rank, or the same rank and older). A key that queues later may
   * still take a place ahead, once per round.
   */
  queuedBefore(row: Pick<GenerationRow, 'id' | 'created_at' | 'queue_rank' | 'batch_id'>): Promise<number>;
  /**
   * Single generations left queued or running by a stopped process, created before `before`, oldest first. A batch's
   * generations are not among them: the batch sweep puts its unfinished prompts back.
   */
  unfinished(before: string, limit: number): Promise<GenerationRow[]>;
  /**
   * The generation of a batch's prompt, created from `row` if the prompt has none yet (a batch accepted before batches
   * were generations): at most one per prompt, whoever asks first, and the prompt names it from then on.
   */
  ensureForBatchItem(row: NewGenerationRow): Promise<GenerationRow>;
}
