import { ApiError, invalidParameter } from '../errors.js';
import { PLAN_ORDER, requestsPerMinute, type Permission, type Plan, type Principal } from './principal.js';

/**
 * What a request would give a key, as creating or changing it. A field left undefined is not being set
 * (an update that leaves it as it is); null for a budget means none, which is a budget like any other here.
 */
export interface KeyTerms {
  userId: string;
  permissions?: readonly Permission[];
  /** The plan and stored `rate_limit` the key would have. */
  limit?: { plan: Plan; rateLimit: number | null };
  dailyBudgetUsd?: number | null;
  monthlyBudgetUsd?: number | null;
}

export const forbidden = (message: string): ApiError => new ApiError('FORBIDDEN', 'Insufficient permissions', { message });

/**
 * A key can only hand out what it holds: its own user (unless admin), its permissions, its plan and limit
 * at most, and no larger budget than its own (nor none). Creating and changing a key both come here, so a
 * key cannot get by a change what it could not get at creation.
 */
export function checkWithinCaller(caller: Principal, terms: KeyTerms): void {
  if (caller.isAdmin) return;
  if (terms.userId !== caller.userId) throw forbidden('only an admin key may create or change keys of another user');
  const missing = (terms.permissions ?? []).filter((permission) => !caller.permissions.has(permission));
  if (missing.length > 0) throw forbidden(`a key cannot grant permissions it does not hold: ${missing.join(', ')}`);
  if (caller.key === undefined) return;
  const held = caller.key;
  if (terms.limit !== undefined) {
    const { plan, rateLimit } = terms.limit;
    if (PLAN_ORDER.indexOf(plan) > PLAN_ORDER.indexOf(held.plan) || requestsPerMinute(plan, rateLimit) > held.requestsPerMinute) {
      throw forbidden(`a ${held.plan} key (${held.requestsPerMinute} requests per minute) cannot give a key a higher plan or limit`);
    }
  }
  checkBudgetWithin('daily', held.dailyBudgetUsd, terms.dailyBudgetUsd);
  checkBudgetWithin('monthly', held.monthlyBudgetUsd, terms.monthlyBudgetUsd);
}

/** A budgeted key cannot escape its budget through a key with a larger one, or none. */
function checkBudgetWithin(budget: 'daily' | 'monthly', held: number | null, requested: number | null | undefined): void {
  if (held === null || requested === undefined || (requested !== null && requested <= held)) return;
  throw forbidden(`this key has a ${budget} budget of $${held}, so the keys it creates or changes need ${budget}_budget_usd of at most ${held}`);
}

/** The `rate_limit` to store for a plan: enterprise keys need one, the other plans have theirs built in. */
export function storedRateLimit(plan: Plan, rateLimit: number | undefined): number | null {
  if (plan === 'enterprise' && rateLimit === undefined) throw invalidParameter('rate_limit', 'enterprise keys need rate_limit (requests per minute)');
  if (plan !== 'enterprise' && rateLimit !== undefined) {
    throw invalidParameter(
      'rate_limit',
      `rate_limit applies to enterprise keys only; the ${plan} plan allows ${requestsPerMinute(plan, null)} requests per minute`,
    );
  }
  return rateLimit ?? null;
}

/** An expiry as stored, refused unless it is still ahead. */
export function futureExpiry(expiresAt: string, now: Date): string {
  const at = new Date(expiresAt);
  // The server's time, to the second, for a client whose clock is off.
  if (at.getTime() <= now.getTime()) throw invalidParameter('expires_at', `expires_at must be in the future (it is ${now.toISOString().slice(0, 19)}Z now)`);
  return at.toISOString();
}
