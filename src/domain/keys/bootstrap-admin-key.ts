import type { ApiKeyRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { displayPrefix, generateSecret, hashSecret } from './key-secret.js';
import { PERMISSIONS } from './principal.js';

/** The row id of the key that ADMIN_API_KEY defines; a fixed id makes start-up idempotent. */
export const ENV_ADMIN_KEY_ID = 'key_admin_env';
export const ADMIN_USER_ID = 'admin';

export type BootstrapResult = { kind: 'env'; keyId: string } | { kind: 'generated'; keyId: string; secret: string } | { kind: 'existing' };

/**
 * With ADMIN_API_KEY set, that exact secret is the admin key (changing the variable replaces it).
 * Unset, an earlier env-defined key is revoked, and when no usable key is left a new admin key is made
 * and returned once, for the caller to print.
 */
export async function bootstrapAdminKey(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, adminSecret: string | undefined): Promise<BootstrapResult> {
  const now = deps.clock.now().toISOString();
  const adminRow = async (id: string, secret: string, name: string): Promise<ApiKeyRow> => ({
    id,
    user_id: ADMIN_USER_ID,
    name,
    prefix: displayPrefix(secret),
    hash: await hashSecret(secret),
    permissions: [...PERMISSIONS],
    plan: 'enterprise',
    rate_limit: 100_000,
    is_admin: true,
    created_at: now,
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
  });

  if (adminSecret !== undefined) {
    const existing = await deps.db.apiKeys.find(ENV_ADMIN_KEY_ID);
    const row = await adminRow(ENV_ADMIN_KEY_ID, adminSecret, 'admin (ADMIN_API_KEY)');
    await deps.db.apiKeys.upsert(existing === undefined ? row : { ...row, created_at: existing.created_at, last_used_at: existing.last_used_at });
    return { kind: 'env', keyId: ENV_ADMIN_KEY_ID };
  }

  await deps.db.apiKeys.revoke(undefined, ENV_ADMIN_KEY_ID, now);
  if ((await deps.db.apiKeys.countActive(now)) > 0) return { kind: 'existing' };
  const secret = generateSecret();
  const keyId = deps.ids.newId('key');
  await deps.db.apiKeys.insert(await adminRow(keyId, secret, 'admin (first start)'));
  return { kind: 'generated', keyId, secret };
}
