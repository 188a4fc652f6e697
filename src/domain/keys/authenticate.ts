import type { Deps } from '../context.js';
import { keyStatus } from './key-record.js';
import { hashSecret, hashesEqual } from './key-secret.js';
import { effectivePermissions, requestsPerMinute, type Principal } from './principal.js';

/** `last_used_at` is written at most once a minute per key, so reads never turn into a write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** Secrets whose digest is remembered; the map is emptied when full (a handful of keys call in practice). */
const DIGESTS_KEPT = 1_000;

export interface KeyAuthenticator {
  /** The principal for a presented secret, or undefined when it is unknown, revoked or expired. */
  authenticate(secret: string): Promise<Principal | undefined>;
}

export function createKeyAuthenticator(deps: Pick<Deps, 'db' | 'clock' | 'logger'>): KeyAuthenticator {
  const lastTouched = new Map<string, number>();
  // WebCrypto's digest is asynchronous and costs about 5% of a cached list request; a key is presented on
  // every request, so its digest is worked out once. The secret is in this process's memory anyway.
  const digests = new Map<string, string>();
  const digestOf = async (secret: string): Promise<string> => {
    const known = digests.get(secret);
    if (known !== undefined) return known;
    const hash = await hashSecret(secret);
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digests.set(secret, hash);
    return hash;
  };

  return {
    async authenticate(secret) {
      const hash = await digestOf(secret);
      const row = await deps.db.apiKeys.findByHash(hash);
      // The index finds the row; the constant-time compare keeps the final check free of timing signal.
      if (row === undefined || !hashesEqual(row.hash, hash)) return undefined;
      const now = deps.clock.now();
      if (keyStatus(row, now) !== 'active') return undefined;

      const nowMs = now.getTime();
      const stored = row.last_used_at === null ? 0 : new Date(row.last_used_at).getTime();
      const seen = Math.max(stored, lastTouched.get(row.id) ?? 0);
      if (nowMs - seen >= TOUCH_INTERVAL_MS) {
        lastTouched.set(row.id, nowMs);
        deps.db.apiKeys.touch(row.id, now.toISOString()).catch((error: unknown) => {
          deps.logger.warn({ err: error, keyId: row.id }, 'could not record last_used_at');
        });
      }

      return {
        userId: row.user_id,
        permissions: effectivePermissions(row.permissions),
        isAdmin: row.is_admin,
        key: {
          id: row.id,
          plan: row.plan,
          requestsPerMinute: requestsPerMinute(row.plan, row.rate_limit),
          dailyBudgetUsd: row.daily_budget_usd ?? null,
          monthlyBudgetUsd: row.monthly_budget_usd ?? null,
        },
      };
    },
  };
}
