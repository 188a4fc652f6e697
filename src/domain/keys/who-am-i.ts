import type { Deps } from '../context.js';
import { spendWindows } from './budget.js';
import { ENV_ADMIN_KEY_ID } from './bootstrap-admin-key.js';
import { toKeyRecord, type ApiKeyRecord } from './key-record.js';
import { PERMISSIONS, type Permission, type Principal } from './principal.js';

export interface WhoAmI {
  user_id: string;
  auth_mode: 'api_key' | 'ip_allowlist';
  /** What this caller may do, expanded (`manage` carries `read` and `generate`). */
  permissions: Permission[];
  is_admin: boolean;
  /** The key the request came with (plan, rate limit, budgets and spend), or null in the IP allow-list mode. */
  key: (ApiKeyRecord & { revocable: boolean; not_revocable_reason: string | null }) | null;
}

/**
 * Who the caller is and what it may do, so a client (the web app) shows only what will work instead of finding
 * out from 403s. Any permission may ask.
 */
export async function whoAmI(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<WhoAmI> {
  const permissions = PERMISSIONS.filter((permission) => principal.permissions.has(permission));
  const base = { user_id: principal.userId, permissions, is_admin: principal.isAdmin };
  if (principal.key === undefined) return { ...base, auth_mode: 'ip_allowlist', key: null };
  const row = await deps.db.apiKeys.find(principal.key.id);
  if (row === undefined) return { ...base, auth_mode: 'api_key', key: null };
  const now = deps.clock.now();
  const spend = await deps.db.charges.spendByKeys([row.id], spendWindows(now));
  // The two revocations revokeKey refuses (409): the key itself, and the one ADMIN_API_KEY defines.
  const reason =
    row.id === ENV_ADMIN_KEY_ID
      ? 'this is the ADMIN_API_KEY key: change or unset ADMIN_API_KEY and restart to retire it'
      : 'a key cannot revoke itself: use another key with the manage permission';
  return { ...base, auth_mode: 'api_key', key: { ...toKeyRecord(row, now, spend.get(row.id)), revocable: false, not_revocable_reason: reason } };
}
