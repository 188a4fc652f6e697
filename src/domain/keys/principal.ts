import type { Permission, Plan } from '../../ports/database.js';

export type { Permission, Plan };

export const PERMISSIONS: readonly Permission[] = ['generate', 'read', 'manage'];

/** Requests per minute by plan; enterprise keys carry their own `rate_limit`. */
export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, number> = { standard: 100, pro: 500 };
export const PLAN_ORDER: readonly Plan[] = ['standard', 'pro', 'enterprise'];

/** Who a request acts for. */
export interface Principal {
  userId: string;
  /** Granted permissions, expanded: `manage` means full access, so it carries `read` and `generate` too. */
  permissions: ReadonlySet<Permission>;
  isAdmin: boolean;
  /** Absent in the IP allow-list mode, which has no keys and no rate limit. */
  key?: { id: string; plan: Plan; requestsPerMinute: number; dailyBudgetUsd: number | null; monthlyBudgetUsd: number | null };
}

export function effectivePermissions(granted: readonly Permission[]): ReadonlySet<Permission> {
  return granted.includes('manage') ? new Set(PERMISSIONS) : new Set(granted);
}

export function requestsPerMinute(plan: Plan, rateLimit: number | null): number {
  return plan === 'enterprise' ? (rateLimit ?? PLAN_LIMITS.standard) : PLAN_LIMITS[plan];
}

/** The IP allow-list mode's single principal. */
export const defaultUserPrincipal: Principal = { userId: 'default_user', permissions: new Set(PERMISSIONS), isAdmin: false };
