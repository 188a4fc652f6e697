import type { KeySpend } from '../../ports/database.js';
import type { Deps, KeyContext } from '../context.js';
import { ApiError } from '../errors.js';

export type { KeySpend };

/** Start of the UTC day and month of `now`, and when each ends (the budgets reset then). */
export function spendWindows(now: Date): { dayStart: string; monthStart: string; dayEnd: string; monthEnd: string } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  return {
    dayStart: new Date(Date.UTC(y, m, d)).toISOString(),
    dayEnd: new Date(Date.UTC(y, m, d + 1)).toISOString(),
    monthStart: new Date(Date.UTC(y, m, 1)).toISOString(),
    monthEnd: new Date(Date.UTC(y, m + 1, 1)).toISOString(),
  };
}

/** Cents and below are noise from float sums; answers are rounded to a millionth of a dollar. */
const usd = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * Refuses a generation whose estimated cost would take the key past its monthly or daily budget, before any
 * provider is called. Spend is what the key's images cost (deleted ones included: they were paid for) in the
 * current UTC month and day. Requests running at the same moment are not counted against each other, so
 * concurrent generations can overshoot a budget by at most what they cost together.
 */
export async function checkBudget(deps: Pick<Deps, 'db' | 'clock'>, key: KeyContext | undefined, estimateUsd: number): Promise<void> {
  if (key === undefined || (key.dailyBudgetUsd === null && key.monthlyBudgetUsd === null)) return;
  const now = deps.clock.now();
  const windows = spendWindows(now);
  const spend = (await deps.db.images.spendByKeys([key.id], windows)).get(key.id) ?? { today_usd: 0, this_month_usd: 0 };
  const budgets = [
    { budget: 'monthly' as const, limit: key.monthlyBudgetUsd, spent: spend.this_month_usd, resetsAt: windows.monthEnd },
    { budget: 'daily' as const, limit: key.dailyBudgetUsd, spent: spend.today_usd, resetsAt: windows.dayEnd },
  ];
  for (const { budget, limit, spent, resetsAt } of budgets) {
    if (limit === null || spent + estimateUsd <= limit + 1e-9) continue;
    const remaining = Math.max(0, limit - spent);
    throw new ApiError('BUDGET_EXCEEDED', 'Budget exceeded', {
      budget,
      limit_usd: limit,
      spent_usd: usd(spent),
      remaining_usd: usd(remaining),
      estimated_cost_usd: usd(estimateUsd),
      resets_at: resetsAt,
      message: `this generation would cost about $${usd(estimateUsd)} and this key has $${usd(remaining)} of its ${budget} budget of $${limit} left; wait until ${resetsAt}, pick a cheaper model or size, or raise the key's ${budget}_budget_usd`,
    });
  }
}
