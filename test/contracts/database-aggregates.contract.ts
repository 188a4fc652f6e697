import { describe, expect, it } from 'vitest';
import type { BatchRow, Database, ImageRow } from '../../src/ports/database.js';
import { apiKey, batch, deliveryFor, generation, generationDelivery, image, items } from './database-rows.js';

const AT = '2026-11-01T11:00:00.000Z';
/** A run's claim on a generation, good for five minutes from AT; LATER is past it. */
const CLAIM = { token: 'run_1', until: '2026-11-01T11:05:00.000Z' };
const LATER = '2026-11-01T11:06:00.000Z';
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

      const changed = await db.apiKeys.update('alice', 'key_1', {
        name: 'desk',
        daily_budget_usd: 0.25,
        monthly_budget_usd: 12.5,
        plan: 'enterprise',
        rate_limit: 300,
      });
      expect(changed).toEqual({
        ...apiKey({}),
        name: 'desk',
        daily_budget_usd: 0.25,
        monthly_budget_usd: 12.5,
        plan: 'enterprise',
        rate_limit: 300,
        expires_at: '2027-01-01T00:00:00.000Z',
      });
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
    const generationOf = (batchId: string, idx: number) => `gen_${batchId}_${idx}`;
    const ref = (batchId: string, idx: number, error?: string) => ({ batchId, idx, ...(error === undefined ? {} : { error }) });
    /** A batch as the domain creates it: each prompt with the generation that runs it. */
    async function createWithGenerations(db: Database, row: BatchRow, count: number): Promise<void> {
      const rowItems = items(row.id, count).map((item) => ({ ...item, generation_id: generationOf(row.id, item.idx) }));
      const generations = rowItems.map((item) =>
        generation({
          id: generationOf(row.id, item.idx),
          user_id: row.user_id,
          prompt: item.prompt,
          image_id: item.image_id,
          webhook_url: null,
          webhook_events: null,
          batch_id: row.id,
          batch_idx: item.idx,
        }),
      );
      await db.batches.create(row, rowItems, generations);
    }
    const startItem = (db: Database, batchId: string, idx: number) => db.generations.start(generationOf(batchId, idx), AT, CLAIM, undefined, ref(batchId, idx));
    const completeItem = (db: Database, batchId: string, idx: number, img: ImageRow) =>
      db.generations.succeed(generationOf(batchId, idx), img, AT, undefined, undefined, ref(batchId, idx));
    const failItem = (db: Database, batchId: string, idx: number, error: string) =>
      db.generations.end(generationOf(batchId, idx), 'failed', { error: 'Image generation failed', code: 'GENERATION_FAILED' }, AT, {
        batchItem: ref(batchId, idx, error),
      });

    it('settles each item once and finishes the batch once, storing its event with the final state', async () => {
      const db = database();
      await createWithGenerations(db, batch({ total_prompts: 2 }), 2);
      expect(await startItem(db, 'batch_1', 0)).toBe(true);
      expect((await db.batches.findAny('batch_1'))?.status).toBe('processing');
      const img = image({ id: 'img_batch_1_0', r2_key: 'generated/img_batch_1_0.png' });
      expect(await completeItem(db, 'batch_1', 0, img)).toBe(true);
      expect(await completeItem(db, 'batch_1', 0, img)).toBe(false);
      // The second run recorded nothing: the image counts once in the gallery's total and in the day's usage.
      expect((await db.images.listLive('alice', { limit: 10, offset: 0 })).total).toBe(1);
      expect((await db.analytics.usage('alice', {})).images).toBe(1);
      expect(await db.batches.finishIfDone('batch_1', AT, deliveryFor)).toEqual({ finished: false });
      expect(await db.batches.unfinishedItems()).toMatchObject([{ batch_id: 'batch_1', idx: 1, status: 'pending' }]);

      expect(await startItem(db, 'batch_1', 1)).toBe(true);
      expect(await failItem(db, 'batch_1', 1, 'boom')).toBe(true);
      const done = await db.batches.finishIfDone('batch_1', '2026-11-01T12:00:00.000Z', deliveryFor);
      expect(done.finished).toBe(true);
      expect(await db.batches.finishIfDone('batch_1', AT, deliveryFor)).toEqual({ finished: false });

      expect(await db.batches.find('alice', 'batch_1')).toMatchObject({
        status: 'completed',
        completed_count: 1,
        failed_count: 1,
        finished_at: '2026-11-01T12:00:00.000Z',
      });
      expect(await db.batches.items('batch_1')).toMatchObject([
        { idx: 0, status: 'succeeded' },
        { idx: 1, status: 'failed', error: 'boom' },
      ]);
      expect(await db.batches.item('batch_1', 1)).toMatchObject({ idx: 1, status: 'failed', error: 'boom' });
      expect(await db.batches.item('batch_1', 2)).toBeUndefined();
      expect(await db.images.findLive('alice', 'img_batch_1_0')).toEqual(img);
      expect(await db.webhookOutbox.deliveries('batch_1')).toEqual([done.delivery]);
      expect(JSON.parse(done.delivery?.payload ?? '{}')).toEqual({ status: 'completed', completed_count: 1, failed_count: 1, items: ['succeeded', 'failed'] });
      expect(await db.batches.openBatchIds()).toEqual([]);
    });

    it('finishes a batch once when its last prompts settle at the same moment, storing one event', async () => {
      const db = database();
      await createWithGenerations(db, batch({ total_prompts: 2 }), 2);
      for (const idx of [0, 1]) {
        await startItem(db, 'batch_1', idx);
        await failItem(db, 'batch_1', idx, 'boom');
      }
      const results = await Promise.all([0, 1, 2].map(() => db.batches.finishIfDone('batch_1', AT, deliveryFor)));
      expect(results.filter((result) => result.finished)).toHaveLength(1);
      expect(results.filter((result) => result.delivery !== undefined)).toHaveLength(1);
      expect(await db.webhookOutbox.deliveries('batch_1')).toHaveLength(1);
    });

    it('cancels an open batch once, for its owner only, dropping pending items and keeping running ones', async () => {
      const db = database();
      await createWithGenerations(db, batch({}), 3);
      await startItem(db, 'batch_1', 0);
      expect(await db.batches.cancel('bob', 'batch_1', AT, deliveryFor)).toBeUndefined();
      const cancelled = await db.batches.cancel('alice', 'batch_1', AT, deliveryFor);
      expect(cancelled?.batch).toMatchObject({ status: 'cancelled', finished_at: AT });
      expect(cancelled?.delivery?.event).toBe('batch.cancelled');
      expect(await db.batches.cancel('alice', 'batch_1', AT, deliveryFor)).toBeUndefined();
      expect((await db.batches.items('batch_1')).map((item) => item.status)).toEqual(['running', 'cancelled', 'cancelled']);
      // Their generations: the running one runs on, the queued ones are cancelled uncharged.
      const statuses = await Promise.all([0, 1, 2].map(async (idx) => (await db.generations.findAny(generationOf('batch_1', idx)))?.status));
      expect(statuses).toEqual(['running', 'cancelled', 'cancelled']);
      expect(await startItem(db, 'batch_1', 1)).toBe(false);
      expect(await db.batches.unfinishedItems()).toEqual([]);
    });

    it('stays consistent when workers start and settle items while their batches are cancelled', async () => {
      const db = database();
      const batchIds = Array.from({ length: 12 }, (_, i) => `batch_${i}`);
      for (const id of batchIds) await createWithGenerations(db, batch({ id, total_prompts: 4 }), 4);
      const work = batchIds.flatMap((id) => [
        ...[0, 1, 2, 3].map(async (idx) => {
          if (await startItem(db, id, idx)) await completeItem(db, id, idx, image({ id: `img_${id}_${idx}`, r2_key: `${id}/${idx}` }));
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

    it('gives a prompt of an older batch (no generation) exactly one generation, however many runs ask at once', async () => {
      const db = database();
      await db.batches.create(batch({ total_prompts: 1 }), items('batch_1', 1));
      const [first, second] = await Promise.all(
        ['gen_a', 'gen_b'].map((id) =>
          db.generations.ensureForBatchItem(
            generation({ id, image_id: 'img_batch_1_0', webhook_url: null, webhook_events: null, batch_id: 'batch_1', batch_idx: 0 }),
          ),
        ),
      );
      expect(first?.id).toBe(second?.id);
      expect((await db.batches.item('batch_1', 0))?.generation_id).toBe(first?.id);
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

  describe("a generation's webhook events", () => {
    it('stores each event with the change it reports, once, and none for a change that does not apply', async () => {
      const db = database();
      await db.generations.insert(generation({}));
      const started = generationDelivery('gen_1', 'started');
      expect(await db.generations.start('gen_1', AT, CLAIM, started)).toBe(true);
      // A second run of the same job, once the first's claim lapsed, finds it running and goes on: the event is not stored twice.
      expect(await db.generations.start('gen_1', LATER, { token: 'run_2', until: '2026-11-01T11:10:00.000Z' }, started)).toBe(true);
      const failed = generationDelivery('gen_1', 'failed');
      expect(await db.generations.end('gen_1', 'failed', { error: 'refused', code: 'CONTENT_REFUSED' }, AT, { event: failed })).toBe(true);
      expect(
        await db.generations.end('gen_1', 'cancelled', { error: 'late', code: 'GENERATION_CANCELLED' }, AT, {
          event: generationDelivery('gen_1', 'cancelled'),
        }),
      ).toBe(false);
      expect(await db.webhookOutbox.generationDeliveries('gen_1')).toEqual([started, failed].sort((a, b) => a.id.localeCompare(b.id)));
      expect(await db.webhookOutbox.deliveries('gen_1')).toEqual([]);
      expect((await db.webhookOutbox.pendingDeliveries()).map((row) => row.id).sort()).toEqual([failed.id, started.id].sort());
    });

    it("lets one run hold a generation: a second run starts it only once the first's claim lapsed, and only the holder renews it", async () => {
      const db = database();
      await db.generations.insert(generation({}));
      expect(await db.generations.start('gen_1', AT, CLAIM)).toBe(true);
      const second = { token: 'run_2', until: '2026-11-01T11:10:00.000Z' };
      expect(await db.generations.start('gen_1', '2026-11-01T11:01:00.000Z', second)).toBe(false);
      // The holder renews it past the second run's next try.
      expect(await db.generations.renewClaim('gen_1', { token: 'run_1', until: '2026-11-01T11:08:00.000Z' })).toBe(true);
      expect(await db.generations.start('gen_1', LATER, second)).toBe(false);
      expect(await db.generations.renewClaim('gen_1', second)).toBe(false);
      // Once it lapsed (its run stopped), the next run takes it over, and the first can no longer renew it.
      expect(await db.generations.start('gen_1', '2026-11-01T11:09:00.000Z', second)).toBe(true);
      expect(await db.generations.renewClaim('gen_1', { token: 'run_1', until: '2026-11-01T11:20:00.000Z' })).toBe(false);
      expect((await db.generations.findAny('gen_1'))?.status).toBe('running');
    });

    it('cancels only a queued generation when asked to, with its event; a running one is left to run', async () => {
      const db = database();
      await db.generations.insert(generation({ id: 'gen_q', image_id: 'img_q' }));
      await db.generations.insert(generation({ id: 'gen_r', image_id: 'img_r' }));
      await db.generations.start('gen_r', AT, CLAIM);
      const failure = { error: 'Generation cancelled', code: 'GENERATION_CANCELLED' };
      expect(await db.generations.end('gen_r', 'cancelled', failure, AT, { onlyQueued: true, event: generationDelivery('gen_r', 'cancelled') })).toBe(false);
      expect(await db.generations.end('gen_q', 'cancelled', failure, AT, { onlyQueued: true, event: generationDelivery('gen_q', 'cancelled') })).toBe(true);
      expect((await db.generations.findAny('gen_r'))?.status).toBe('running');
      expect(await db.generations.findAny('gen_q')).toMatchObject({
        status: 'cancelled',
        error: failure,
        webhook_events: ['generation.started', 'generation.failed'],
      });
      expect(await db.webhookOutbox.generationDeliveries('gen_r')).toEqual([]);
      expect((await db.webhookOutbox.generationDeliveries('gen_q')).map((row) => row.id)).toEqual(['whd_gen_q_cancelled']);
    });
  });
}
