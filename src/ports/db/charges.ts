import type { Write } from './unit-of-work.js';
import type { CallJournal } from '../image-provider.js';
import type { PageRequest, TimeRange } from './common.js';

/**
 * What became of one provider call that may have cost money:
 * - `reserved`: in flight; its estimate is held against the key's budgets;
 * - `succeeded`: the image was made and recorded, at its settled cost;
 * - `not_charged`: the provider refused or failed before accepting it (costs nothing);
 * - `charged_no_image`: the provider accepted (and bills) a job that produced no image (cancelled, timed out);
 * - `uncertain`: the answer was lost after the request was sent; the provider may have billed it.
 */
export type ChargeOutcome = 'reserved' | 'succeeded' | 'not_charged' | 'charged_no_image' | 'uncertain';

/**
 * The provider's answer as stored under the image's own key, journaled before the image's record is written: a run
 * whose record write failed (the database down) records this on its next run instead of calling the provider again.
 */
export interface StoredAnswer {
  key: string;
  width: number;
  height: number;
  cost_usd: number;
  seed?: number;
  has_thumbnails: boolean;
}

/** The part of a call journal worth keeping across a crash: the provider's job, its output file, and the stored answer. */
export type JournalState = Pick<CallJournal, 'job' | 'output'> & { stored?: StoredAnswer };

export interface ChargeRow {
  id: string;
  user_id: string;
  key_id: string | null;
  /** The image the call was for; it exists only once the outcome is `succeeded`. */
  image_id: string;
  model: string;
  provider: string;
  /** The provider's own id for the job (a Replicate prediction), for reconciling with its invoice. */
  provider_job_id: string | null;
  journal: JournalState | null;
  /** The catalogue's estimate, held while the call runs. */
  estimated_usd: number;
  /** What the charge counts for: the estimate until settled, then what it cost (0 when not charged). */
  cost_usd: number;
  outcome: ChargeOutcome;
  /** Why a call that made no image ended, in words. */
  error: string | null;
  created_at: string;
  settled_at: string | null;
}

/**
 * A budget a reservation must stay within: the spend since `since` of key `key_id` and of every key it created
 * (directly or not), plus the new estimate, at most `limit_usd`.
 */
export interface BudgetLimit {
  key_id: string;
  budget: 'daily' | 'monthly';
  limit_usd: number;
  since: string;
}

export type ReserveResult = { reserved: true } | { reserved: false; key_id: string; budget: BudgetLimit['budget']; limit_usd: number; spent_usd: number };

export interface ChargeSettlement {
  id: string;
  outcome: Exclude<ChargeOutcome, 'reserved'>;
  cost_usd: number;
  error?: string | null;
  at: string;
}

/** One cell of a cost report: the charges of one outcome, model and UTC day. */
export interface ChargeBucket {
  day: string;
  model: string;
  outcome: ChargeOutcome;
  charges: number;
  cost_usd: number;
}

export interface ChargeFilter extends TimeRange {
  key_id?: string;
  outcome?: ChargeOutcome;
}

/** What a key has spent in the current UTC day and month: every charge, reservations in flight included. */
export interface KeySpend {
  today_usd: number;
  this_month_usd: number;
}

export interface ChargeRepository {
  /**
   * Records the call as `reserved` unless, counting every charge of each limit's key and the keys that key created
   * since the limit's start, it would pass one of `limits`. Atomic against every other reservation of any key whose
   * budget one of `limits` is, in any process.
   */
  reserve(row: ChargeRow, limits: readonly BudgetLimit[]): Promise<ReserveResult>;
  /** Keeps what the provider has accepted, so a restarted worker resumes the job instead of paying for another. */
  recordJournal(id: string, journal: JournalState): Promise<void>;
  /** Ends a reserved charge; a charge already settled is left as it is. */
  settle(settlement: ChargeSettlement): Promise<void>;
  /** `settle` as a write, to commit with others (an image and the charge that paid for it). */
  settleWrite(settlement: ChargeSettlement): Write;
  /**
   * Settles as `uncertain` what a dead process left reserved: reservations made before `before` whose provider job
   * is unknown, and any made before `withJobBefore` (a job a batch worker would have resumed by then). Returns how many.
   */
  settleStale(cutoffs: { before: string; withJobBefore: string }, at: string): Promise<number>;
  /**
   * Which of these image ids, any user's, have a charge still reserved: a paid call under way, or its answer stored
   * under the image's key with the record still to be written (the database was down), which the orphan sweep must
   * keep. For housekeeping only, never for a request.
   */
  reservedImageIds(imageIds: readonly string[]): Promise<Set<string>>;
  /** The newest charge of this user for this image id (resuming a batch prompt after a crash). */
  latestForImage(userId: string, imageId: string): Promise<ChargeRow | undefined>;
  /** Spend of each key since `monthStart`, and of that since `dayStart`; keys without charges are absent. */
  spendByKeys(keyIds: readonly string[], since: { dayStart: string; monthStart: string }): Promise<Map<string, KeySpend>>;
  /** The user's charges by UTC day, model and outcome, in the range (and of one key, when given). */
  buckets(userId: string, filter: ChargeFilter): Promise<ChargeBucket[]>;
  /** The user's charges, newest first. */
  list(userId: string, filter: ChargeFilter, page: PageRequest): Promise<{ items: ChargeRow[]; total: number }>;
}
