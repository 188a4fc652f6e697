import type { ApiKeyRow, PageRequest } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { paginate, type Pagination } from '../pagination.js';
import { ENV_ADMIN_KEY_ID } from './bootstrap-admin-key.js';
import { toKeyRecord, type ApiKeyRecord } from './key-record.js';
import { spendWindows } from './budget.js';
import { displayPrefix, generateSecret, hashSecret } from './key-secret.js';
import { checkWithinCaller, forbidden, futureExpiry, storedRateLimit } from './key-terms.js';
import type { Permission, Plan, Principal } from './principal.js';

export interface CreateKeyInput {
  name: string;
  permissions: Permission[];
  plan?: Plan;
  rate_limit?: number;
  expires_at?: string;
  user_id?: string;
  daily_budget_usd?: number | null;
  monthly_budget_usd?: number | null;
}

export interface CreatedKey extends ApiKeyRecord {
  /** The secret, shown this once and never again. */
  key: string;
}

interface KeyArgs<I> {
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>;
  caller: Principal;
  input: I;
}

/** A key can only hand out what it holds: its own user (unless admin), its permissions, its plan and limit at most. */
export async function createKey({ deps, caller, input }: KeyArgs<CreateKeyInput>): Promise<CreatedKey> {
  const plan = input.plan ?? 'standard';
  const rateLimit = storedRateLimit(plan, input.rate_limit);
  const now = deps.clock.now();
  const expiresAt = input.expires_at === undefined ? null : futureExpiry(input.expires_at, now);
  const userId = input.user_id ?? caller.userId;
  checkWithinCaller(caller, {
    userId,
    permissions: input.permissions,
    limit: { plan, rateLimit },
    dailyBudgetUsd: input.daily_budget_usd ?? null,
    monthlyBudgetUsd: input.monthly_budget_usd ?? null,
  });

  const creatorIds = await creatorsOfNewKey(deps, caller, userId);
  const secret = generateSecret();
  const row: ApiKeyRow = {
    id: deps.ids.newId('key'),
    user_id: userId,
    name: input.name,
    prefix: displayPrefix(secret),
    hash: await hashSecret(secret),
    permissions: [...new Set(input.permissions)],
    plan,
    rate_limit: rateLimit,
    is_admin: false,
    created_at: now.toISOString(),
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
    daily_budget_usd: input.daily_budget_usd ?? null,
    monthly_budget_usd: input.monthly_budget_usd ?? null,
    ...(creatorIds.length === 0 ? {} : { creator_ids: creatorIds }),
  };
  await deps.db.apiKeys.insert(row);
  return { ...toKeyRecord(row, now), key: secret };
}

/**
 * A key made by a key of its own user belongs to that key's tree: the creating key's creators, then the creating
 * key. Every budget along the chain binds the new key (see budgetLimits). An admin's key for another user, the CLI
 * and the IP allow-list mode make keys of no tree.
 */
async function creatorsOfNewKey(deps: Pick<Deps, 'db'>, caller: Principal, userId: string): Promise<string[]> {
  if (caller.key === undefined || userId !== caller.userId) return [];
  const creating = await deps.db.apiKeys.find(caller.key.id);
  return [...(creating?.creator_ids ?? []), caller.key.id];
}

/** Your user's keys; an admin may list another user's with `user_id`, or everyone's with `user_id: '*'`. */
export async function listKeys({
  deps,
  caller,
  input,
}: KeyArgs<PageRequest & { user_id?: string }>): Promise<{ keys: ApiKeyRecord[]; pagination: Pagination }> {
  let scope: string | undefined = caller.userId;
  if (input.user_id !== undefined && input.user_id !== caller.userId) {
    if (!caller.isAdmin) throw forbidden('only an admin key may list keys of another user');
    scope = input.user_id === '*' ? undefined : input.user_id;
  }
  const now = deps.clock.now();
  const page = await deps.db.apiKeys.list(scope, input);
  const spend = await deps.db.charges.spendByKeys(
    page.items.map((row) => row.id),
    spendWindows(now),
  );
  const { items, pagination } = paginate(page, input, (row) => toKeyRecord(row, now, spend.get(row.id)));
  return { keys: items, pagination };
}

/**
 * Revoked keys answer 401 from the next request on; another user's key is not found. Two revocations would
 * lock the operator out, so they are refused: a key revoking itself, and the ADMIN_API_KEY key, which the
 * environment defines (unset the variable and restart to retire it).
 */
export async function revokeKey({ deps, caller, input }: KeyArgs<{ keyId: string }>): Promise<{ id: string; revoked: true; revoked_at: string }> {
  if (caller.key !== undefined && input.keyId === caller.key.id) {
    throw new ApiError('CONFLICT', 'Key cannot revoke itself', {
      key_id: input.keyId,
      message: 'a key cannot revoke itself; revoke it with another key that has the manage permission, or with `imagegate keys revoke`',
    });
  }
  if (input.keyId === ENV_ADMIN_KEY_ID) {
    throw new ApiError('CONFLICT', 'Key is managed by the environment', {
      key_id: input.keyId,
      message: 'this is the ADMIN_API_KEY key; change or unset ADMIN_API_KEY and restart the server to replace or retire it',
    });
  }
  const at = deps.clock.now().toISOString();
  const revoked = await deps.db.apiKeys.revoke(caller.isAdmin ? undefined : caller.userId, input.keyId, at);
  if (!revoked) throw notFound('API key', 'key_id', input.keyId);
  return { id: input.keyId, revoked: true, revoked_at: at };
}
