import type { ChargeRow, ChargeSettlement, StoredAnswer } from '../../ports/database.js';
import type { CallJournal } from '../../ports/image-provider.js';
import type { Deps, RequestContext } from '../context.js';
import { ApiError } from '../errors.js';
import { budgetExceeded, budgetLimits } from '../keys/budget.js';
import type { GenerationPlan } from '../images/plan-generation.js';
import { estimateCost } from '../images/estimate-cost.js';
import { durableJournal } from './durable-journal.js';

/** A provider call's charge while it runs: reserved in the ledger, its journal written through to it. */
export interface OpenCharge {
  id: string;
  estimateUsd: number;
  journal: CallJournal;
  /** Waits for the journal's writes, so a settlement never lands before the job id it settles. */
  flush(): Promise<void>;
  /** Journals the answer as stored under the image's key, before the image's record is written. */
  recordStored(stored: StoredAnswer): Promise<void>;
  /**
   * Set when an earlier run of this image stored the provider's answer but could not record it (the database was
   * down): that answer is recorded now, and the provider is not called again.
   */
  stored?: StoredAnswer;
}

/** Looks for an answer an earlier run stored under the image's own key without journaling it (the journal write failed too). */
export type StoredAnswerProbe = () => Promise<StoredAnswer | undefined>;

type ChargeDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'logger'>;

/**
 * Reserves the call's estimated cost against every budget of the key and of the keys that created it, atomically
 * with every other reservation under those budgets in any process: a key that fits five generations makes five,
 * however many arrive at once, and so does a tree of keys under one budget.
 * Free models (the offline renderer, self-hosted servers) cost nothing and are not recorded.
 *
 * With `resume` (a batch prompt run again after a crash), an earlier charge of the same image is taken up: its
 * accepted job is followed instead of creating and paying for another, and an earlier call whose outcome is
 * unknown is never sent again.
 */
export async function openCharge(
  deps: ChargeDeps & Pick<Deps, 'metrics'>,
  ctx: RequestContext,
  plan: GenerationPlan,
  imageId: string,
  resume: false | { probe: StoredAnswerProbe } = false,
): Promise<OpenCharge | undefined> {
  if (plan.model.pricing.kind === 'free') return undefined;
  const estimateUsd = estimateCost(plan);
  if (resume !== false) {
    const earlier = await deps.db.charges.latestForImage(ctx.userId, imageId);
    if (earlier !== undefined && earlier.outcome !== 'not_charged') return takeUp(deps, earlier, resume.probe);
  }
  const now = deps.clock.now();
  const row: ChargeRow = {
    id: deps.ids.newId('chg'),
    user_id: ctx.userId,
    key_id: ctx.key?.id ?? null,
    image_id: imageId,
    model: plan.model.id,
    provider: plan.model.provider,
    provider_job_id: null,
    journal: null,
    estimated_usd: estimateUsd,
    cost_usd: estimateUsd,
    outcome: 'reserved',
    error: null,
    created_at: now.toISOString(),
    settled_at: null,
  };
  // The budgets of the keys that created this one bind it too, read as they are now (a key created by a budgeted
  // key draws from its creator's budget: creating keys never multiplies what a budget allows).
  const creators = ctx.key === undefined ? [] : await deps.db.apiKeys.budgetChain(ctx.key.id);
  const result = await deps.db.charges.reserve(row, budgetLimits(ctx.key, creators, now));
  if (!result.reserved) {
    deps.metrics.budgetRefused(result.budget);
    throw budgetExceeded(result, estimateUsd, now, ctx.key?.id);
  }
  return withJournal(deps, row);
}

function withJournal(deps: ChargeDeps, row: ChargeRow): OpenCharge {
  const durable = durableJournal(
    row.journal,
    (state) => deps.db.charges.recordJournal(row.id, state),
    (error) =>
      deps.logger.error({ chargeId: row.id, err: error instanceof Error ? error.message : String(error) }, 'could not record the provider job in the ledger'),
  );
  const { journal, flush, recordStored } = durable;
  return {
    id: row.id,
    estimateUsd: row.estimated_usd,
    journal,
    flush,
    recordStored,
    ...(row.journal?.stored === undefined ? {} : { stored: row.journal.stored }),
  };
}

/**
 * An earlier attempt's charge: its stored answer recorded when it got that far, its provider job resumed when that is
 * known, otherwise never sent again.
 */
async function takeUp(deps: ChargeDeps, earlier: ChargeRow, probe: StoredAnswerProbe): Promise<OpenCharge> {
  if (earlier.outcome === 'reserved' && earlier.journal?.stored !== undefined) {
    deps.logger.info({ chargeId: earlier.id, key: earlier.journal.stored.key }, 'recording the answer an interrupted attempt stored');
    return withJournal(deps, earlier);
  }
  if (earlier.outcome === 'reserved' && earlier.journal?.job !== undefined) {
    deps.logger.info({ chargeId: earlier.id, job: earlier.journal.job.id }, 'resuming the provider job of an interrupted attempt');
    return withJournal(deps, earlier);
  }
  if (earlier.outcome === 'reserved') {
    // The journal's write may have failed with the record's (the database down): the object under the image's own
    // key says the answer arrived and was stored all the same.
    const stored = await probe();
    if (stored !== undefined) {
      deps.logger.info({ chargeId: earlier.id, key: stored.key }, 'recording the answer an interrupted attempt stored without journaling it');
      return { ...withJournal(deps, earlier), stored: { ...stored, cost_usd: earlier.estimated_usd } };
    }
  }
  const at = deps.clock.now().toISOString();
  if (earlier.outcome === 'reserved') {
    // The process stopped after reserving, maybe after sending: the provider may have made (and billed) it.
    await deps.db.charges.settle({
      id: earlier.id,
      outcome: 'uncertain',
      cost_usd: earlier.estimated_usd,
      error: 'interrupted: the process stopped while the call was in flight',
      at,
    });
  }
  throw new ApiError('GENERATION_OUTCOME_UNKNOWN', 'Generation outcome unknown', {
    model: earlier.model,
    charge_id: earlier.id,
    message: `an earlier attempt at this prompt stopped after its request may have reached ${earlier.provider}; it is not sent again so it cannot be paid twice (see charge ${earlier.id} in GET /api/charges)`,
  });
}

/** Settles without blocking the answer on a ledger that is briefly unreachable: the reservation stands meanwhile. */
export async function settleQuietly(deps: ChargeDeps, settlement: ChargeSettlement): Promise<void> {
  try {
    await deps.db.charges.settle(settlement);
  } catch (error) {
    deps.logger.error(
      { chargeId: settlement.id, outcome: settlement.outcome, err: error instanceof Error ? error.message : String(error) },
      'could not settle a charge; it stays reserved at its estimate',
    );
  }
}
