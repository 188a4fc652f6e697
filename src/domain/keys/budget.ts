import type { BudgetLimit, KeySpend } from '../../ports/database.js';
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

/** The key's budgets as limits a reservation must stay within: monthly first, so it is the one named when both are passed. */
export function budgetLimits(key: KeyContext | undefined, now: Date): BudgetLimit[] {
  if (key === undefined) return [];
  const windows = spendWindows(now);
  const limits: BudgetLimit[] = [];
  if (key.monthlyBudgetUsd !== null) limits.push({ budget: 'monthly', limit_usd: key.monthlyBudgetUsd, since: windows.monthStart });
  if (key.dailyBudgetUsd !== null) limits.push({ budget: 'daily', limit_usd: key.dailyBudgetUsd, since: windows.dayStart });
  return limits;
}

/** 402 BUDGET_EXCEEDED: which budget, what is left, when it resets, and what the caller can do about it. */
export function budgetExceeded(refusal: { budget: BudgetLimit['budget']; limit_usd: number; spent_usd: number }, estimateUsd: number, now: Date): ApiError {
  const { budget, limit_usd: limit, spent_usd: spent } = refusal;
  const windows = spendWindows(now);
  const resetsAt = budget === 'daily' ? windows.dayEnd : windows.monthEnd;
  const remaining = Math.max(0, limit - spent);
  return new ApiError('BUDGET_EXCEEDED', 'Budget exceeded', {
    budget,
    limit_usd: limit,
    spent_usd: usd(spent),
    remaining_usd: usd(remaining),
    estimated_cost_usd: usd(estimateUsd),
    resets_at: resetsAt,
    message: `this generation would cost about $${usd(estimateUsd)} and this key has $${usd(remaining)} of its ${budget} budget of $${limit} left; wait until ${resetsAt}, pick a cheaper model or size, or raise the key's ${budget}_budget_usd`,
  });
}
