import type { Page, PageRequest } from './common.js';

export type Permission = 'generate' | 'read' | 'manage';
export type Plan = 'standard' | 'pro' | 'enterprise';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  hash: string;
  permissions: Permission[];
  plan: Plan;
  /** Requests per minute; set for enterprise keys only. */
  rate_limit: number | null;
  is_admin: boolean;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Spend limits in USD per UTC day and month; absent or null for none. */
  daily_budget_usd?: number | null;
  monthly_budget_usd?: number | null;
  /**
   * The keys that created this one, root first (absent or empty when no key did). Each one's budget also binds
   * this key: a key can never spend past a budget by creating keys.
   */
  creator_ids?: readonly string[];
}

/** A key's own budgets, as a reservation checks them. */
export interface KeyBudgets {
  key_id: string;
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
}

/** The fields of a key that can change after creation; an absent field stays as it is. */
export type ApiKeyChanges = Partial<Pick<ApiKeyRow, 'name' | 'plan' | 'rate_limit' | 'expires_at'>> & {
  daily_budget_usd?: number | null;
  monthly_budget_usd?: number | null;
};

export interface ApiKeyRepository {
  insert(row: ApiKeyRow): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRow | undefined>;
  find(id: string): Promise<ApiKeyRow | undefined>;
  /** Keys of one user, or of every user when `userId` is undefined (operators only). */
  list(userId: string | undefined, page: PageRequest): Promise<Page<ApiKeyRow>>;
  /** Marks the key revoked; false when it does not exist for this user or is already revoked. */
  revoke(userId: string | undefined, id: string, at: string): Promise<boolean>;
  /**
   * Applies the changes to a key of this user (any user's when undefined) that is not revoked, and returns
   * the row as it now is; undefined when there is no such key.
   */
  update(userId: string | undefined, id: string, changes: ApiKeyChanges): Promise<ApiKeyRow | undefined>;
  touch(id: string, at: string): Promise<void>;
  /** Inserts or replaces the row with this id (the operator's key from ADMIN_API_KEY). */
  upsert(row: ApiKeyRow): Promise<void>;
  countActive(at: string): Promise<number>;
  /**
   * The budgets of this key and of every key that created it, this key first, then its creator, up to the root.
   * Revoked creators are included: revoking a key does not free the keys it made from its budget.
   */
  budgetChain(id: string): Promise<KeyBudgets[]>;
}
