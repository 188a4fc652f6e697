import type { Kysely } from 'kysely';
import { toNumber } from './rows.js';
import type { SettingsRepository } from '../../ports/database.js';
import type { DatabaseSchema } from './schema.js';

export function createSettingsRepository(db: Kysely<DatabaseSchema>): SettingsRepository {
  const get = async (key: string) => (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
  return {
    get,
    async getOrSet(key, value) {
      await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return (await get(key)) ?? value;
    },
    async advance(key, value) {
      const result = await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }).where('settings.value', '<', value))
        .executeTakeFirst();
      return toNumber(result.numInsertedOrUpdatedRows) > 0;
    },
  };
}
