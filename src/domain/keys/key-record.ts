import type { ApiKeyRow, KeySpend, Permission, Plan } from '../../ports/database.js';
import { requestsPerMinute } from './principal.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The first characters of the secret, to recognise it. */
  prefix: string;
  user_id: string;
  permissions: Permission[];
  plan: Plan;
  /** Requests per minute this key may make. */
  rate_limit: number;
  is_admin: boolean;
  status: 'active' | 'revoked' | 'expired';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Spend limits in USD per UTC day and month; null for none. */
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
  /** What the key's images cost this UTC day and month. */
  spend: KeySpend;
}

export function keyStatus(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: Date): ApiKeyRecord['status'] {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const NO_SPEND: KeySpend = { today_usd: 0, this_month_usd: 0 };

export const toKeyRecord = (row: ApiKeyRow, now: Date, spend: KeySpend = NO_SPEND): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  user_id: row.user_id,
  permissions: row.permissions,
  plan: row.plan,
  rate_limit: requestsPerMinute(row.plan, row.rate_limit),
  is_admin: row.is_admin,
  status: keyStatus(row, now),
  created_at: row.created_at,
  expires_at: row.expires_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
  daily_budget_usd: row.daily_budget_usd ?? null,
  monthly_budget_usd: row.monthly_budget_usd ?? null,
  spend: { today_usd: Math.round(spend.today_usd * 1e6) / 1e6, this_month_usd: Math.round(spend.this_month_usd * 1e6) / 1e6 },
});
