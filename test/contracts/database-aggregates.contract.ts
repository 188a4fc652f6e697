import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/ports/database.js';
import { apiKey, batch, deliveryFor, image, items } from './database-rows.js';

const AT = '2026-11-01T11:00:00.000Z';
const page = { limit: 10, offset: 0 };

/** API keys, settings, batches and the webhook outbox: the repositories whose writes use upserts and guarded updates. */
export function describeAggregateContract(database: () => Database): void {
  describe('keys and settings', () => {
    it('finds a key by hash, revokes it once, and upserts the operator key in place', async () => {
      const db = database();
      const row = apiKey({ rate_limit: 120 });
      await db.apiKeys.insert(row);
      expect(await db.apiKeys.findByHash('hash-1')).toEqual(row);
      expect(await db.apiKeys.revoke('bob', 'key_1', AT)).toBe(false);
      expect(await db.apiKeys.revoke('alice', 'key_1', AT)).toBe(true);
      expect(await db.apiKeys.revoke(undefined, 'key_1', AT)).toBe(false);
      await db.apiKeys.touch('key_1', AT);
      expect(await db.apiKeys.find('key_1')).toMatchObject({ revoked_at: AT, last_used_at: AT });

      await db.apiKeys.upsert(apiKey({ id: 'key_admin', hash: 'h-old', is_admin: true, user_id: 'admin' }));
      await db.apiKeys.upsert(apiKey({ id: 'key_admin', hash: 'h-new', is_admin: true, user_id: 'admin', name: 'renamed' }));
      expect(await db.apiKeys.findByHash('h-old')).toBeUndefined();
      expect(await db.apiKeys.findByHash('h-new')).toMatchObject({ id: 'key_admin', name: 'renamed', is_admin: true });
      expect((await db.apiKeys.list(undefined, page)).total).toBe(2);
      expect((await db.apiKeys.list('admin', page)).items.map((key) => key.id)).toEqual(['key_admin']);
    });

    it("changes only the given fields of a user's live key, clears with null, and leaves other users' and revoked keys alone", async () => {
      const db = database();
      await db.apiKeys.insert(apiKey({ daily_budget_usd: 5, expires_at: '2027-01-01T00:00:00.000Z' }));
      expect(await db.apiKeys.update('bob', 'key_1', { name: 'stolen' })).toBeUndefined();
      expect(await db.apiKeys.update('alice', 'key_nope', { name: 'x' })).toBeUndefined();

      const changed = await db.apiKeys.update('alice', 'key_1', { name: 'desk', daily_budget_usd: 0.25, monthly_budget_usd: 12.5, plan: 'enterprise', rate_limit: 300 });
      expect(changed).toEqual({ ...apiKey({}), name: 'desk', daily_budget_usd: 0.25, monthly_budget_usd: 12.5, plan: 'enterprise', rate_limit: 300, expires_at: '2027-01-01T00:00:00.000Z' });
      expect(await db.apiKeys.findByHash('hash-1')).toEqual(changed);

      const cleared = await db.apiKeys.update(undefined, 'key_1', { daily_budget_usd: null, expires_at: null, plan: 'pro', rate_limit: null });
      expect(cleared).toMatchObject({ name: 'desk', plan: 'pro', rate_limit: null, expires_at: null, monthly_budget_usd: 12.5 });
      expect(cleared?.daily_budget_usd ?? null).toBeNull();
      expect(await db.apiKeys.update('alice', 'key_1', {})).toEqual(cleared);

      expect(await db.apiKeys.revoke('alice', 'key_1', AT)).toBe(true);
      expect(await db.apiKeys.update('alice', 'key_1', { name: 'revived' })).toBeUndefined();
      expect((await db.apiKeys.find('key_1'))?.name).toBe('desk');
    });

    it('counts as active only keys neither revoked nor expired at the instant asked', async () => {
      const db = database();
      await db.apiKeys.insert(apiKey({ id: 'k_open', hash: 'a' }));
      await db.apiKeys.insert(apiKey({ id: 'k_later', hash: 'b', expires_at: '2026-11-01T11:00:00.001Z' }));
      await db.apiKeys.insert(apiKey({ id: 'k_now', hash: 'c', expires_at: AT }));
      await db.apiKeys.insert(apiKey({ id: 'k_revoked', hash: 'd', revoked_at: '2026-11-01T10:30:00.000Z' }));
      expect(await db.apiKeys.countActive(AT)).toBe(2);
    });

    it('keeps the first value a setting was given', async () => {
      const db = database();
      expect(await db.settings.get('secret')).toBeUndefined();
      expect(await db.settings.getOrSet('secret', 'first')).toBe('first');
      expect(await db.settings.getOrSet('secret', 'second')).toBe('first');
      expect(await Promise.all([db.settings.getOrSet('race', 'a'), db.settings.getOrSet('race', 'b')])).toSatisfy(
        (values: string[]) => values[0] === values[1],
      );
    });
  });

  describe('batches and their outbox', () => {
    it('settles each item once and finishes the batch once, storing its event with the final state', async () => {
      const db = database();
      await db.batches.create(batch({ total_prompts: 2 }), items('batch_1', 2));
      expect(await db.batches.startItem('batch_1', 0, AT)).toBe(true);
      expect((await db.batches.findAny('batch_1'))?.status).toBe('processing');
      const img = image({ id: 'img_batch_1_0', r2_key: 'generated/img_batch_1_0.png' });
      expect(await db.batches.completeItem('batch_1', 0, img, AT)).toBe(true);
      expect(await db.batches.completeItem('batch_1', 0, img, AT)).toBe(false);
      // The second run recorded nothing: the image counts once in the gallery's total and in the day's usage.
      expect((await db.images.listLive('alice', { limit: 10, offset: 0 })).total).toBe(1);
      expect((await db.analytics.usage('alice', {})).images).toBe(1);
      expect(await db.batches.finishIfDone('batch_1', AT, deliveryFor)).toEqual({ finished: false });
      expect(await db.batches.unfinishedItems()).toMatchObject([{ batch_id: 'batch_1', idx: 1, status: 'pending' }]);

      expect(await db.batches.startItem('batch_1', 1, AT)).toBe(true);
      expect(await db.batches.failItem('batch_1', 1, 'boom', AT)).toBe(true);
      const done = await db.batches.finishIfDone('batch_1', '2026-11-01T12:00:00.000Z', deliveryFor);
      expect(done.finished).toBe(true);
      expect(await db.batches.finishIfDone('batch_1', AT, deliveryFor)).toEqual({ finished: false });

      expect(await db.batches.find('alice', 'batch_1')).toMatchObject({ status: 'completed', completed_count: 1, failed_count: 1, finished_at: '2026-11-01T12:00:00.000Z' });
      expect(await db.batches.items('batch_1')).toMatchObject([{ idx: 0, status: 'succeeded' }, { idx: 1, status: 'failed', error: 'boom' }]);
      expect(await db.batches.item('batch_1', 1)).toMatchObject({ idx: 1, status: 'failed', error: 'boom' });
      expect(await db.batches.item('batch_1', 2)).toBeUndefined();
      expect(await db.images.findLive('alice', 'img_batch_1_0')).toEqual(img);
      expect(await db.webhookOutbox.deliveries('batch_1')).toEqual([done.delivery]);
      expect(JSON.parse(done.delivery?.payload ?? '{}')).toEqual({ status: 'completed', completed_count: 1, failed_count: 1, items: ['succeeded', 'failed'] });
      expect(await db.batches.openBatchIds()).toEqual([]);
    });

    it('finishes a batch once when its last prompts settle at the same moment, storing one event', async () => {
      const db = database();
      await db.batches.create(batch({ total_prompts: 2 }), items('batch_1', 2));
      for (const idx of [0, 1]) {
        await db.batches.startItem('batch_1', idx, AT);
        await db.batches.failItem('batch_1', idx, 'boom', AT);
      }
      const results = await Promise.all([0, 1, 2].map(() => db.batches.finishIfDone('batch_1', AT, deliveryFor)));
      expect(results.filter((result) => result.finished)).toHaveLength(1);
      expect(results.filter((result) => result.delivery !== undefined)).toHaveLength(1);
      expect(await db.webhookOutbox.deliveries('batch_1')).toHaveLength(1);
    });

    it('cancels an open batch once, for its owner only, dropping pending items and keeping running ones', async () => {
      const db = database();
      await db.batches.create(batch({}), items('batch_1', 3));
      await db.batches.startItem('batch_1', 0, AT);
      expect(await db.batches.cancel('bob', 'batch_1', AT, deliveryFor)).toBeUndefined();
      const cancelled = await db.batches.cancel('alice', 'batch_1', AT, deliveryFor);
      expect(cancelled?.batch).toMatchObject({ status: 'cancelled', finished_at: AT });
      expect(cancelled?.delivery?.event).toBe('batch.cancelled');
      expect(await db.batches.cancel('alice', 'batch_1', AT, deliveryFor)).toBeUndefined();
      expect((await db.batches.items('batch_1')).map((item) => item.status)).toEqual(['running', 'cancelled', 'cancelled']);
      expect(await db.batches.startItem('batch_1', 1, AT)).toBe(false);
      expect(await db.batches.unfinishedItems()).toEqual([]);
    });

    it('stays consistent when workers start and settle items while their batches are cancelled', async () => {
      const db = database();
      const batchIds = Array.from({ length: 12 }, (_, i) => `batch_${i}`);
      for (const id of batchIds) await db.batches.create(batch({ id, total_prompts: 4 }), items(id, 4));
      const work = batchIds.flatMap((id) => [
        ...[0, 1, 2, 3].map(async (idx) => {
          if (await db.batches.startItem(id, idx, AT)) await db.batches.completeItem(id, idx, image({ id: `img_${id}_${idx}`, r2_key: `${id}/${idx}` }), AT);
        }),
        db.batches.cancel('alice', id, AT, deliveryFor),
      ]);
      // Every write must succeed: PostgreSQL aborts one side of a deadlock with an error.
      await Promise.all(work);
      for (const id of batchIds) {
        const row = await db.batches.findAny(id);
        const rowItems = await db.batches.items(id);
        expect(row?.status).toBe('cancelled');
        expect(row?.completed_count).toBe(rowItems.filter((item) => item.status === 'succeeded').length);
        expect(rowItems.every((item) => item.status === 'succeeded' || item.status === 'cancelled')).toBe(true);
      }
    });

    it('records each delivery attempt once and leaves pending only what is still to send', async () => {
      const db = database();
      await db.batches.create(batch({}), items('batch_1', 1));
      await db.batches.cancel('alice', 'batch_1', AT, deliveryFor);
      const id = 'msg_batch_1';
      expect((await db.webhookOutbox.pendingDeliveries()).map((row) => row.id)).toEqual([id]);
      const attempt = { delivery_id: id, attempt: 1, at: AT, status_code: 500, error: 'server error', duration_ms: 12 };
      await db.webhookOutbox.recordAttempt(attempt, { status: 'pending', next_attempt_at: '2026-11-01T11:05:00.000Z' });
      await db.webhookOutbox.recordAttempt(attempt, { status: 'pending', next_attempt_at: '2026-11-01T11:05:00.000Z' });
      await db.webhookOutbox.recordAttempt({ ...attempt, attempt: 2, status_code: 204, error: null }, { status: 'delivered', next_attempt_at: null });
      expect(await db.webhookOutbox.attempts(id)).toEqual([attempt, { ...attempt, attempt: 2, status_code: 204, error: null }]);
      expect(await db.webhookOutbox.findDelivery(id)).toMatchObject({ status: 'delivered', attempts: 2, next_attempt_at: null });
      expect(await db.webhookOutbox.pendingDeliveries()).toEqual([]);
    });
  });
}
