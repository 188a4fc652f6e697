import type { ChargeOutcome, ChargeRow, PageRequest } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { paginate, type Pagination } from '../pagination.js';
import { toTimeRange, type RangeInput } from './range.js';

/** One line of the ledger as the API shows it: enough to match it against a provider's invoice. */
export interface ChargeRecord {
  id: string;
  key_id: string | null;
  /** The image the call made; null unless the outcome is `succeeded`. */
  image_id: string | null;
  model: string;
  provider: string;
  provider_job_id: string | null;
  estimated_cost: number;
  cost: number;
  outcome: ChargeOutcome;
  error: string | null;
  created_at: string;
  settled_at: string | null;
}

export const toChargeRecord = (row: ChargeRow): ChargeRecord => ({
  id: row.id,
  key_id: row.key_id,
  image_id: row.outcome === 'succeeded' ? row.image_id : null,
  model: row.model,
  provider: row.provider,
  provider_job_id: row.provider_job_id,
  estimated_cost: row.estimated_usd,
  cost: row.cost_usd,
  outcome: row.outcome,
  error: row.error,
  created_at: row.created_at,
  settled_at: row.settled_at,
});

export interface ListChargesInput extends RangeInput, PageRequest {
  key_id?: string;
  outcome?: ChargeOutcome;
}

/** The caller's ledger, newest first: every provider call that may have cost money, and what became of it. */
export async function listCharges({ deps, ctx, input }: VerbArgs<ListChargesInput>): Promise<{ charges: ChargeRecord[]; pagination: Pagination }> {
  const range = toTimeRange(input);
  const filter = {
    ...range,
    ...(input.key_id === undefined ? {} : { key_id: input.key_id }),
    ...(input.outcome === undefined ? {} : { outcome: input.outcome }),
  };
  const page = await deps.db.charges.list(ctx.userId, filter, input);
  const { items, pagination } = paginate(page, input, toChargeRecord);
  return { charges: items, pagination };
}
