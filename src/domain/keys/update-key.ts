import type { Deps } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { ENV_ADMIN_KEY_ID } from './bootstrap-admin-key.js';
import { spendWindows } from './budget.js';
import { toKeyRecord, type ApiKeyRecord } from './key-record.js';
import { checkWithinCaller, forbidden, futureExpiry, storedRateLimit, type KeyTerms } from './key-terms.js';
import type { Plan, Principal } from './principal.js';

/** What PATCH /api/keys/{id} may change; an absent field stays as it is, null clears a budget or the expiry. */
export interface UpdateKeyInput {
  name?: string;
  plan?: Plan;
  rate_limit?: number;
  expires_at?: string | null;
  daily_budget_usd?: number | null;
  monthly_budget_usd?: number | null;
}

interface UpdateKeyArgs {
  deps: Pick<Deps, 'db' | 'clock'>;
  caller: Principal;
  input: { keyId: string; changes: UpdateKeyInput };
}

const revokedConflict = (keyId: string): ApiError =>
  new ApiError('CONFLICT', 'Key is revoked', { key_id: keyId, message: 'this key is revoked and cannot be changed; create a new key instead' });

/**
 * Changes a key in place, under the rules that apply when creating one (checkWithinCaller): a key cannot
 * give by a change what it could not give at creation, its own budget included. The change counts from the
 * next request (the key cache forgets the key). The ADMIN_API_KEY key belongs to the environment, as for revoke.
 */
export async function updateKey({ deps, caller, input: { keyId, changes } }: UpdateKeyArgs): Promise<ApiKeyRecord> {
  const row = await deps.db.apiKeys.find(keyId);
  if (row === undefined || (!caller.isAdmin && row.user_id !== caller.userId)) throw notFound('API key', 'key_id', keyId);
  if (keyId === ENV_ADMIN_KEY_ID) {
    throw new ApiError('CONFLICT', 'Key is managed by the environment', {
      key_id: keyId,
      message:
        "this is the ADMIN_API_KEY key, which the server's environment defines, so the API cannot change it; change or unset ADMIN_API_KEY and restart the server to replace or retire it",
    });
  }
  if (row.revoked_at !== null) throw revokedConflict(keyId);

  const changesBudget = changes.daily_budget_usd !== undefined || changes.monthly_budget_usd !== undefined;
  if (changesBudget && !caller.isAdmin && caller.key !== undefined && (await isCreatorOf(deps, keyId, caller.key.id))) {
    throw forbidden(
      `key ${keyId} created this key (directly or not), and its budget binds this key too; a key cannot change the budget of a key that created it`,
    );
  }

  const now = deps.clock.now();
  const terms: KeyTerms = { userId: row.user_id, dailyBudgetUsd: changes.daily_budget_usd, monthlyBudgetUsd: changes.monthly_budget_usd };
  if (changes.plan !== undefined || changes.rate_limit !== undefined) {
    const plan = changes.plan ?? row.plan;
    // An enterprise key keeps its own limit unless a new one is sent; any other plan has its limit built in.
    const kept = plan === 'enterprise' && row.plan === 'enterprise' && row.rate_limit !== null ? row.rate_limit : undefined;
    terms.limit = { plan, rateLimit: storedRateLimit(plan, changes.rate_limit ?? kept) };
  }
  const expiresAt = changes.expires_at === undefined || changes.expires_at === null ? changes.expires_at : futureExpiry(changes.expires_at, now);
  checkWithinCaller(caller, terms);

  const updated = await deps.db.apiKeys.update(caller.isAdmin ? undefined : caller.userId, keyId, {
    name: changes.name,
    plan: terms.limit?.plan,
    rate_limit: terms.limit?.rateLimit,
    expires_at: expiresAt,
    daily_budget_usd: changes.daily_budget_usd,
    monthly_budget_usd: changes.monthly_budget_usd,
  });
  // Found live a moment ago: gone now means revoked in between.
  if (updated === undefined) throw revokedConflict(keyId);
  const spend = await deps.db.charges.spendByKeys([keyId], spendWindows(now));
  return toKeyRecord(updated, now, spend.get(keyId));
}

/** Whether `keyId` is among the keys that created `callerKeyId`. */
async function isCreatorOf(deps: Pick<Deps, 'db'>, keyId: string, callerKeyId: string): Promise<boolean> {
  const caller = await deps.db.apiKeys.find(callerKeyId);
  return caller?.creator_ids?.includes(keyId) ?? false;
}
