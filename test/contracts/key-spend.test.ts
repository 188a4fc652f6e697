import { describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import type { Database } from '../../src/ports/database.js';
import { openTestPostgresDatabase } from '../../src/test-support/postgres.js';
import { skipWithout } from '../../src/test-support/services.js';
import { apiKey, image } from './database-rows.js';
import { eachMigratedDatabase } from './migrated-database.js';

/** Per-key spend and budgets (migration 008), against every Database adapter. */
function describeKeySpendContract(name: string, open: () => Promise<Database>): void {
  describe(`Key spend contract: ${name}`, () => {
    let db: Database;
    eachMigratedDatabase(open, (opened) => (db = opened));

    it("sums each key's images this month and today, deleted ones included, and keeps key_id on the row", async () => {
      await db.images.insert(image({ id: 'img_old', key_id: 'key_a', cost: 5, created_at: '2026-10-31T23:59:59.999Z' }));
      await db.images.insert(image({ id: 'img_1', key_id: 'key_a', cost: 0.25, created_at: '2026-11-02T08:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_2', key_id: 'key_a', cost: 0.5, created_at: '2026-11-20T00:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_3', key_id: 'key_b', cost: 1, created_at: '2026-11-20T09:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_4', cost: 7, created_at: '2026-11-20T09:00:00.000Z' }));
      await db.images.softDelete('alice', 'img_2', '2026-11-20T10:00:00.000Z');
      const spend = await db.images.spendByKeys(['key_a', 'key_b', 'key_c'], { dayStart: '2026-11-20T00:00:00.000Z', monthStart: '2026-11-01T00:00:00.000Z' });
      expect(spend.get('key_a')).toEqual({ today_usd: 0.5, this_month_usd: 0.75 });
      expect(spend.get('key_b')).toEqual({ today_usd: 1, this_month_usd: 1 });
      expect(spend.has('key_c')).toBe(false);
      expect(await db.images.spendByKeys([], { dayStart: '2026-11-20T00:00:00.000Z', monthStart: '2026-11-01T00:00:00.000Z' })).toEqual(new Map());
      expect((await db.images.findLive('alice', 'img_1'))?.key_id).toBe('key_a');
      expect(await db.images.findLive('alice', 'img_4')).toEqual(image({ id: 'img_4', cost: 7, created_at: '2026-11-20T09:00:00.000Z' }));
    });

    it('stores key budgets, and reads keys without them as before', async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 1.5, monthly_budget_usd: 20 }));
      await db.apiKeys.insert(apiKey({ id: 'key_b', hash: 'h_b' }));
      expect(await db.apiKeys.find('key_a')).toMatchObject({ daily_budget_usd: 1.5, monthly_budget_usd: 20 });
      expect(await db.apiKeys.find('key_b')).toEqual(apiKey({ id: 'key_b', hash: 'h_b' }));
    });
  });
}

describeKeySpendContract('SQLite in memory', async () => createSqliteDatabase(':memory:'));

const skip = await skipWithout('postgres');
describe.skipIf(skip)('PostgreSQL', () => {
  describeKeySpendContract('PostgreSQL, a fresh schema per test', () => openTestPostgresDatabase());
});
