import type { BudgetLimit, KeyBudgets, KeySpend } from '../../ports/database.js';
import type { KeyContext } from '../context.js';
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
 * The budgets a reservation by this key must stay within: its own (as the request carries them) and those of every
 * key that created it, each counting the spend of its whole tree of keys. Monthly before daily, nearest key first,
 * so the refusal names the budget a caller most likely set.
 */
export function budgetLimits(key: KeyContext | undefined, creators: readonly KeyBudgets[], now: Date): BudgetLimit[] {
  if (key === undefined) return [];
  const windows = spendWindows(now);
  const own: KeyBudgets = { key_id: key.id, daily_budget_usd: key.dailyBudgetUsd, monthly_budget_usd: key.monthlyBudgetUsd };
  const limits: BudgetLimit[] = [];
  for (const budgets of [own, ...creators.filter((creator) => creator.key_id !== key.id)]) {
    const { key_id, monthly_budget_usd: monthly, daily_budget_usd: daily } = budgets;
    if (monthly !== null) limits.push({ key_id, budget: 'monthly', limit_usd: monthly, since: windows.monthStart });
    if (daily !== null) limits.push({ key_id, budget: 'daily', limit_usd: daily, since: windows.dayStart });
  }
  return limits;
}

/** 402 BUDGET_EXCEEDED: which budget (and whose), what is left, when it resets, and what the caller can do about it. */
export function budgetExceeded(
  refusal: { key_id: string; budget: BudgetLimit['budget']; limit_usd: number; spent_usd: number },
  estimateUsd: number,
  now: Date,
  callerKeyId: string | undefined,
): ApiError {
  const { budget, limit_usd: limit, spent_usd: spent } = refusal;
  const windows = spendWindows(now);
  const resetsAt = budget === 'daily' ? windows.dayEnd : windows.monthEnd;
  const remaining = Math.max(0, limit - spent);
  const own = refusal.key_id === callerKeyId;
  const whose = own ? 'this key' : `key ${refusal.key_id}, which created this key and shares its budget with every key it created,`;
  const raise = own ? `raise the key's ${budget}_budget_usd` : `ask for key ${refusal.key_id}'s ${budget}_budget_usd to be raised`;
  return new ApiError('BUDGET_EXCEEDED', 'Budget exceeded', {
    budget,
    ...(own ? {} : { budget_key_id: refusal.key_id }),
    limit_usd: limit,
    spent_usd: usd(spent),
    remaining_usd: usd(remaining),
    estimated_cost_usd: usd(estimateUsd),
    resets_at: resetsAt,
    message: `this generation would cost about $${usd(estimateUsd)} and ${whose} has $${usd(remaining)} of its ${budget} budget of $${limit} left; wait until ${resetsAt}, pick a cheaper model or size, or ${raise}`,
  });
}
