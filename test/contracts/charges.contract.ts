import { describe, expect, it } from 'vitest';
import type { BudgetLimit, ChargeRow, Database } from '../../src/ports/database.js';
import { apiKey, image } from './database-rows.js';
import { eachMigratedDatabase } from './migrated-database.js';

const charge = (over: Partial<ChargeRow>): ChargeRow => ({
  id: 'chg_1',
  user_id: 'alice',
  key_id: 'key_a',
  image_id: 'img_1',
  model: 'replicate/black-forest-labs/flux-schnell',
  provider: 'replicate',
  provider_job_id: null,
  journal: null,
  estimated_usd: 0.25,
  cost_usd: 0.25,
  outcome: 'reserved',
  error: null,
  created_at: '2026-11-20T09:00:00.000Z',
  settled_at: null,
  ...over,
});

const WINDOWS = { dayStart: '2026-11-20T00:00:00.000Z', monthStart: '2026-11-01T00:00:00.000Z' };
const daily = (limit: number, keyId = 'key_a'): BudgetLimit[] => [{ key_id: keyId, budget: 'daily', limit_usd: limit, since: WINDOWS.dayStart }];
const AT = '2026-11-20T09:00:05.000Z';

/** The charge ledger (migration 009) and key budgets, against every Database adapter. */
export function describeChargeContract(name: string, open: () => Promise<Database>): void {
  describe(`Charge ledger contract: ${name}`, () => {
    let db: Database;
    eachMigratedDatabase(open, (opened) => (db = opened));

    it("sums each key's charges this month and today, reservations in flight included and refusals at nothing", async () => {
      await db.charges.reserve(charge({ id: 'chg_old', cost_usd: 5, created_at: '2026-10-31T23:59:59.999Z' }), []);
      await db.charges.reserve(charge({ id: 'chg_1', cost_usd: 0.25, created_at: '2026-11-02T08:00:00.000Z' }), []);
      await db.charges.reserve(charge({ id: 'chg_2', cost_usd: 0.5 }), []);
      await db.charges.reserve(charge({ id: 'chg_3', key_id: 'key_b', cost_usd: 1 }), []);
      await db.charges.reserve(charge({ id: 'chg_4', key_id: null, cost_usd: 7 }), []);
      await db.charges.reserve(charge({ id: 'chg_5', cost_usd: 0.75 }), []);
      await db.charges.settle({ id: 'chg_5', outcome: 'not_charged', cost_usd: 0, error: 'refused', at: AT });
      const spend = await db.charges.spendByKeys(['key_a', 'key_b', 'key_c'], WINDOWS);
      expect(spend.get('key_a')).toEqual({ today_usd: 0.5, this_month_usd: 0.75 });
      expect(spend.get('key_b')).toEqual({ today_usd: 1, this_month_usd: 1 });
      expect(spend.has('key_c')).toBe(false);
      expect(await db.charges.spendByKeys([], WINDOWS)).toEqual(new Map());
    });

    it('refuses a reservation that would pass a budget, naming the budget and what was spent', async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 0.6 }));
      expect(await db.charges.reserve(charge({ id: 'chg_1' }), daily(0.6))).toEqual({ reserved: true });
      expect(await db.charges.reserve(charge({ id: 'chg_2', image_id: 'img_2' }), daily(0.6))).toEqual({ reserved: true });
      expect(await db.charges.reserve(charge({ id: 'chg_3', image_id: 'img_3' }), daily(0.6))).toEqual({
        reserved: false,
        key_id: 'key_a',
        budget: 'daily',
        limit_usd: 0.6,
        spent_usd: 0.5,
      });
      // A call that cost nothing gives its reservation back.
      await db.charges.settle({ id: 'chg_2', outcome: 'not_charged', cost_usd: 0, at: AT });
      expect(await db.charges.reserve(charge({ id: 'chg_4', image_id: 'img_4' }), daily(0.6))).toEqual({ reserved: true });
    });

    it('lets exactly as many concurrent reservations through as the budget holds', async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 1.25 }));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => db.charges.reserve(charge({ id: `chg_${i}`, image_id: `img_${i}` }), daily(1.25))),
      );
      expect(results.filter((result) => result.reserved)).toHaveLength(5);
      expect((await db.charges.spendByKeys(['key_a'], WINDOWS)).get('key_a')).toEqual({ today_usd: 1.25, this_month_usd: 1.25 });
    });

    it("counts every key a key created, at any depth, against that key's budget, and nothing of other keys", async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 1 }));
      await db.apiKeys.insert(apiKey({ id: 'key_b', hash: 'h_b', creator_ids: ['key_a'] }));
      await db.apiKeys.insert(apiKey({ id: 'key_c', hash: 'h_c', creator_ids: ['key_a', 'key_b'] }));
      // `_` is LIKE's any-character: a key whose id differs there only is not in key_a's tree.
      await db.apiKeys.insert(apiKey({ id: 'keyxa', hash: 'h_x' }));
      await db.apiKeys.insert(apiKey({ id: 'key_d', hash: 'h_d', creator_ids: ['keyxa'] }));
      await db.charges.reserve(charge({ id: 'chg_x', key_id: 'key_d', cost_usd: 5, estimated_usd: 5 }), []);
      const underA = (id: string, keyId: string) => db.charges.reserve(charge({ id, image_id: `img_${id}`, key_id: keyId }), daily(1, 'key_a'));
      expect(await underA('chg_1', 'key_a')).toEqual({ reserved: true });
      expect(await underA('chg_2', 'key_b')).toEqual({ reserved: true });
      expect(await underA('chg_3', 'key_c')).toEqual({ reserved: true });
      expect(await underA('chg_4', 'key_c')).toEqual({ reserved: true });
      expect(await underA('chg_5', 'key_b')).toEqual({ reserved: false, key_id: 'key_a', budget: 'daily', limit_usd: 1, spent_usd: 1 });
      expect(await db.apiKeys.budgetChain('key_c')).toEqual([
        { key_id: 'key_c', daily_budget_usd: null, monthly_budget_usd: null },
        { key_id: 'key_b', daily_budget_usd: null, monthly_budget_usd: null },
        { key_id: 'key_a', daily_budget_usd: 1, monthly_budget_usd: null },
      ]);
    });

    it('lets exactly as many concurrent reservations of a tree of keys through as its root budget holds', async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 1.25 }));
      await db.apiKeys.insert(apiKey({ id: 'key_b', hash: 'h_b', daily_budget_usd: 1.25, creator_ids: ['key_a'] }));
      const limits = [...daily(1.25, 'key_b'), ...daily(1.25, 'key_a')];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const keyId = i % 2 === 0 ? 'key_a' : 'key_b';
          return db.charges.reserve(charge({ id: `chg_${i}`, image_id: `img_${i}`, key_id: keyId }), keyId === 'key_a' ? daily(1.25) : limits);
        }),
      );
      expect(results.filter((result) => result.reserved)).toHaveLength(5);
    });

    it('settles once: a second settlement of the same charge changes nothing', async () => {
      await db.charges.reserve(charge({}), []);
      await db.charges.settle({ id: 'chg_1', outcome: 'uncertain', cost_usd: 0.25, error: 'answer lost', at: AT });
      await db.charges.settle({ id: 'chg_1', outcome: 'not_charged', cost_usd: 0, at: AT });
      expect(await db.charges.latestForImage('alice', 'img_1')).toMatchObject({ outcome: 'uncertain', cost_usd: 0.25, error: 'answer lost', settled_at: AT });
    });

    it("keeps the provider's job with the charge and finds the newest charge of an image, for its user only", async () => {
      await db.charges.reserve(charge({ id: 'chg_1', created_at: '2026-11-20T08:00:00.000Z' }), []);
      await db.charges.settle({ id: 'chg_1', outcome: 'not_charged', cost_usd: 0, at: AT });
      await db.charges.reserve(charge({ id: 'chg_2' }), []);
      await db.charges.recordJournal('chg_2', { job: { id: 'pred_9', urls: { get: 'http://x/v1/predictions/pred_9' } } });
      expect(await db.charges.latestForImage('alice', 'img_1')).toMatchObject({
        id: 'chg_2',
        provider_job_id: 'pred_9',
        journal: { job: { id: 'pred_9', urls: { get: 'http://x/v1/predictions/pred_9' } } },
      });
      expect(await db.charges.latestForImage('bob', 'img_1')).toBeUndefined();
    });

    it('settles as uncertain what a dead process left reserved: old ones without a job, and very old ones with one', async () => {
      await db.charges.reserve(charge({ id: 'chg_old', created_at: '2026-11-20T07:00:00.000Z' }), []);
      await db.charges.reserve(charge({ id: 'chg_new', image_id: 'img_2', created_at: '2026-11-20T08:30:00.000Z' }), []);
      await db.charges.reserve(charge({ id: 'chg_job', image_id: 'img_3', created_at: '2026-11-20T07:00:00.000Z' }), []);
      await db.charges.recordJournal('chg_job', { job: { id: 'pred_1' } });
      await db.charges.reserve(charge({ id: 'chg_done', image_id: 'img_4', created_at: '2026-11-20T07:00:00.000Z' }), []);
      await db.charges.settle({ id: 'chg_done', outcome: 'not_charged', cost_usd: 0, at: AT });
      expect(await db.charges.settleStale({ before: '2026-11-20T08:00:00.000Z', withJobBefore: '2026-11-19T09:00:00.000Z' }, AT)).toBe(1);
      const outcomes = (await db.charges.list('alice', {}, { limit: 10, offset: 0 })).items.map((row) => [row.id, row.outcome]);
      expect(outcomes.sort()).toEqual([
        ['chg_done', 'not_charged'],
        ['chg_job', 'reserved'],
        ['chg_new', 'reserved'],
        ['chg_old', 'uncertain'],
      ]);
      expect(await db.charges.latestForImage('alice', 'img_1')).toMatchObject({
        error: 'interrupted: the process stopped while the call was in flight',
        settled_at: AT,
      });
    });

    it("names the images, any user's, whose charge is still reserved, for the orphan sweep", async () => {
      await db.charges.reserve(charge({ id: 'chg_1', image_id: 'img_1' }), []);
      await db.charges.reserve(charge({ id: 'chg_2', image_id: 'img_2', user_id: 'bob' }), []);
      await db.charges.reserve(charge({ id: 'chg_3', image_id: 'img_3' }), []);
      await db.charges.settle({ id: 'chg_3', outcome: 'uncertain', cost_usd: 0.25, error: 'answer lost', at: AT });
      // An earlier charge of the same image ended; its newer one is still reserved.
      await db.charges.reserve(charge({ id: 'chg_4', image_id: 'img_4', created_at: '2026-11-20T08:00:00.000Z' }), []);
      await db.charges.settle({ id: 'chg_4', outcome: 'not_charged', cost_usd: 0, at: AT });
      await db.charges.reserve(charge({ id: 'chg_5', image_id: 'img_4' }), []);
      // More ids than D1 binds in one statement.
      const asked = [...Array.from({ length: 150 }, (_, i) => `img_none_${i}`), 'img_1', 'img_2', 'img_3', 'img_4', 'img_5'];
      expect(await db.charges.reservedImageIds(asked)).toEqual(new Set(['img_1', 'img_2', 'img_4']));
      expect(await db.charges.reservedImageIds([])).toEqual(new Set());
    });

    it('records an image and settles its charge in one unit of work: both or neither', async () => {
      await db.charges.reserve(charge({}), []);
      await db.commit([
        ...db.images.recordWrites(image({ id: 'img_1', key_id: 'key_a' })),
        db.charges.settleWrite({ id: 'chg_1', outcome: 'succeeded', cost_usd: 0.2, at: AT }),
      ]);
      expect(await db.charges.latestForImage('alice', 'img_1')).toMatchObject({ outcome: 'succeeded', cost_usd: 0.2 });
      await db.charges.reserve(charge({ id: 'chg_2', image_id: 'img_1', created_at: '2026-11-20T09:30:00.000Z' }), []);
      // The same image id again: the insert fails, and the charge stays reserved.
      await expect(
        db.commit([...db.images.recordWrites(image({ id: 'img_1' })), db.charges.settleWrite({ id: 'chg_2', outcome: 'succeeded', cost_usd: 0.2, at: AT })]),
      ).rejects.toThrow();
      expect(await db.charges.latestForImage('alice', 'img_1')).toMatchObject({ id: 'chg_2', outcome: 'reserved' });
    });

    it('reports charges by day, model and outcome, and lists them newest first, filtered by key and outcome', async () => {
      await db.charges.reserve(charge({ id: 'chg_1', created_at: '2026-11-19T09:00:00.000Z' }), []);
      await db.charges.reserve(charge({ id: 'chg_2', image_id: 'img_2' }), []);
      await db.charges.reserve(charge({ id: 'chg_3', image_id: 'img_3', key_id: 'key_b' }), []);
      await db.charges.reserve(charge({ id: 'chg_4', image_id: 'img_4', user_id: 'bob' }), []);
      await db.charges.settle({ id: 'chg_2', outcome: 'uncertain', cost_usd: 0.25, at: AT });
      const buckets = await db.charges.buckets('alice', { from: WINDOWS.dayStart });
      expect(buckets.sort((a, b) => a.outcome.localeCompare(b.outcome))).toEqual([
        { day: '2026-11-20', model: 'replicate/black-forest-labs/flux-schnell', outcome: 'reserved', charges: 1, cost_usd: 0.25 },
        { day: '2026-11-20', model: 'replicate/black-forest-labs/flux-schnell', outcome: 'uncertain', charges: 1, cost_usd: 0.25 },
      ]);
      expect(await db.charges.buckets('alice', { key_id: 'key_b' })).toHaveLength(1);
      const page = await db.charges.list('alice', { key_id: 'key_a' }, { limit: 1, offset: 0 });
      expect(page.total).toBe(2);
      expect(page.items.map((row) => row.id)).toEqual(['chg_2']);
      expect((await db.charges.list('alice', { outcome: 'uncertain' }, { limit: 10, offset: 0 })).items.map((row) => row.id)).toEqual(['chg_2']);
    });

    it('stores key budgets, and reads keys without them as before', async () => {
      await db.apiKeys.insert(apiKey({ id: 'key_a', hash: 'h_a', daily_budget_usd: 1.5, monthly_budget_usd: 20 }));
      await db.apiKeys.insert(apiKey({ id: 'key_b', hash: 'h_b' }));
      expect(await db.apiKeys.find('key_a')).toMatchObject({ daily_budget_usd: 1.5, monthly_budget_usd: 20 });
      expect(await db.apiKeys.find('key_b')).toEqual(apiKey({ id: 'key_b', hash: 'h_b' }));
      await db.images.insert(image({ id: 'img_1', key_id: 'key_a' }));
      expect((await db.images.findLive('alice', 'img_1'))?.key_id).toBe('key_a');
    });
  });
}
