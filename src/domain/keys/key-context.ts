import type { Deps, RequestContext } from '../context.js';

/**
 * The context of work a key asked for and a worker runs later (a batch prompt, a generation job): charged to that
 * key, with its budgets as they are when the work runs (a budget lowered meanwhile applies). A key deleted since
 * charges nothing to anyone.
 */
export async function keyContextFor(deps: Pick<Deps, 'db'>, userId: string, keyId: string | null | undefined, requestId: string): Promise<RequestContext> {
  const ctx: RequestContext = { userId, requestId };
  if (keyId === undefined || keyId === null) return ctx;
  const key = await deps.db.apiKeys.find(keyId);
  return { ...ctx, key: { id: keyId, dailyBudgetUsd: key?.daily_budget_usd ?? null, monthlyBudgetUsd: key?.monthly_budget_usd ?? null } };
}
