import type { Kysely, Selectable, Updateable } from 'kysely';
import type { ApiKeyRepository, ApiKeyRow, Permission, Plan } from '../../ports/database.js';
import { toNumber } from './rows.js';
import type { ApiKeysTable, DatabaseSchema } from './schema.js';

/** `/key_a/key_b/` from the creators, root first; null for none. */
export const toCreatorPath = (ids: readonly string[] | undefined): string | null => (ids === undefined || ids.length === 0 ? null : `/${ids.join('/')}/`);
const fromCreatorPath = (path: string | null): string[] => (path === null ? [] : path.split('/').filter((id) => id !== ''));

const toRow = ({ daily_budget_usd: daily, monthly_budget_usd: monthly, creator_path: creators, ...row }: Selectable<ApiKeysTable>): ApiKeyRow => ({
  ...row,
  // Absent rather than null when unset, as rows written before budgets existed.
  ...(daily === null ? {} : { daily_budget_usd: Number(daily) }),
  ...(monthly === null ? {} : { monthly_budget_usd: Number(monthly) }),
  ...(creators === null ? {} : { creator_ids: fromCreatorPath(creators) }),
  permissions: JSON.parse(row.permissions) as Permission[],
  plan: row.plan as Plan,
  rate_limit: row.rate_limit === null ? null : Number(row.rate_limit),
  is_admin: Number(row.is_admin) === 1,
});

const fromRow = ({ creator_ids: creators, ...row }: ApiKeyRow): Selectable<ApiKeysTable> => ({
  ...row,
  creator_path: toCreatorPath(creators),
  daily_budget_usd: row.daily_budget_usd ?? null,
  monthly_budget_usd: row.monthly_budget_usd ?? null,
  permissions: JSON.stringify(row.permissions),
  is_admin: row.is_admin ? 1 : 0,
});

const definedOnly = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

export function createApiKeyRepository(db: Kysely<DatabaseSchema>): ApiKeyRepository {
  const scoped = (userId: string | undefined) => {
    const query = db.selectFrom('api_keys');
    return userId === undefined ? query : query.where('user_id', '=', userId);
  };
  return {
    async insert(row) {
      await db.insertInto('api_keys').values(fromRow(row)).execute();
    },
    async findByHash(hash) {
      const row = await db.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row === undefined ? undefined : toRow(row);
    },
    async find(id) {
      const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRow(row);
    },
    async list(userId, page) {
      const [rows, count] = await Promise.all([
        scoped(userId).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
        scoped(userId)
          .select((eb) => eb.fn.countAll().as('total'))
          .executeTakeFirst(),
      ]);
      return { items: rows.map(toRow), total: toNumber(count?.total) };
    },
    async revoke(userId, id, at) {
      let query = db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      const result = await query.executeTakeFirst();
      return toNumber(result.numUpdatedRows) > 0;
    },
    async update(userId, id, changes) {
      // Only the columns the port names, and only those given: an absent field stays as it is.
      const { name, plan, rate_limit, expires_at, daily_budget_usd, monthly_budget_usd } = changes;
      const set: Updateable<ApiKeysTable> = definedOnly({ name, plan, rate_limit, expires_at, daily_budget_usd, monthly_budget_usd });
      if (Object.keys(set).length === 0) {
        const row = await scoped(userId).selectAll().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
        return row === undefined ? undefined : toRow(row);
      }
      let query = db.updateTable('api_keys').set(set).where('id', '=', id).where('revoked_at', 'is', null);
      if (userId !== undefined) query = query.where('user_id', '=', userId);
      const row = await query.returningAll().executeTakeFirst();
      return row === undefined ? undefined : toRow(row);
    },
    async touch(id, at) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
    async upsert(row) {
      const values = fromRow(row);
      const { id: _id, ...changes } = values;
      await db
        .insertInto('api_keys')
        .values(values)
        .onConflict((oc) => oc.column('id').doUpdateSet(changes))
        .execute();
    },
    async budgetChain(id) {
      const key = await db.selectFrom('api_keys').select('creator_path').where('id', '=', id).executeTakeFirst();
      if (key === undefined) return [];
      const chain = [id, ...fromCreatorPath(key.creator_path).reverse()];
      const rows = await db.selectFrom('api_keys').select(['id', 'daily_budget_usd', 'monthly_budget_usd']).where('id', 'in', chain).execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      return chain.flatMap((keyId) => {
        const row = byId.get(keyId);
        if (row === undefined) return [];
        const budget = (value: number | null) => (value === null ? null : Number(value));
        return [{ key_id: keyId, daily_budget_usd: budget(row.daily_budget_usd), monthly_budget_usd: budget(row.monthly_budget_usd) }];
      });
    },
    async countActive(at) {
      const result = await db
        .selectFrom('api_keys')
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      return toNumber(result?.n);
    },
  };
}
