import { describe, expect, it } from 'vitest';
import type { Database, NewGenerationRow } from '../../src/ports/database.js';
import { batch, generation, items } from './database-rows.js';

const AT = '2026-11-01T11:00:00.000Z';
const FAILURE = { error: 'Generation cancelled', code: 'GENERATION_CANCELLED' };
/** A run's claim on the generation it starts, holding past every test. */
const claim = (id: string) => ({ token: `run-${id}`, until: '2026-11-02T00:00:00.000Z' });

/** A generation of `lane` (a key of alice's, or keyless `user:<id>`), created `second` seconds into the hour. */
const gen = (id: string, lane: string, second: number): NewGenerationRow => {
  const [user, key] = lane.startsWith('user:') ? [lane.slice(5), null] : ['alice', lane];
  return generation({
    id,
    image_id: `img_${id}`,
    user_id: user,
    key_id: key,
    created_at: `2026-11-01T10:00:${String(second).padStart(2, '0')}.000Z`,
    webhook_url: null,
    webhook_events: null,
  });
};

/** The fair queue's ranks, given at insert, and the queue positions read from them. */
export function describeQueueRankContract(database: () => Database): void {
  describe('generations in the fair queue', () => {
    const insertAll = async (db: Database, rows: NewGenerationRow[]) => {
      const ranks: Record<string, number> = {};
      for (const row of rows) ranks[row.id] = (await db.generations.insert(row)).queue_rank;
      return ranks;
    };
    const positions = async (db: Database, ids: string[]) => {
      const found: Record<string, number> = {};
      for (const id of ids) {
        const row = await db.generations.findAny(id);
        if (row !== undefined) found[id] = await db.generations.queuedBefore(row);
      }
      return found;
    };

    it("gives a key's generations consecutive rounds and another key's the round being served, and counts a position by them", async () => {
      const db = database();
      const first = await insertAll(db, [
        gen('a1', 'key_a', 1),
        gen('a2', 'key_a', 2),
        gen('a3', 'key_a', 3),
        gen('b1', 'key_b', 4),
        gen('u1', 'user:carol', 5),
      ]);
      // A keyless user is a lane of its own, as a key is.
      expect(first).toEqual({ a1: 0, a2: 1, a3: 2, b1: 0, u1: 0 });
      expect(await positions(db, ['a1', 'b1', 'u1', 'a2', 'a3'])).toEqual({ a1: 0, b1: 1, u1: 2, a2: 3, a3: 4 });
      // The row read back carries its rank.
      expect(await db.generations.findAny('a3')).toMatchObject({ queue_rank: 2 });

      expect(await db.generations.start('a1', AT, claim('a1'))).toBe(true);
      // Round 0 is being served: a new key lands in it; key A's next comes after its last queued one.
      const second = await insertAll(db, [gen('c1', 'key_c', 6), gen('a4', 'key_a', 7)]);
      expect(second).toEqual({ c1: 0, a4: 3 });
      expect(await positions(db, ['b1', 'u1', 'c1', 'a2', 'a3', 'a4'])).toEqual({ b1: 0, u1: 1, c1: 2, a2: 3, a3: 4, a4: 5 });

      // Positions count down as generations start or leave the queue.
      await db.generations.start('b1', AT, claim('b1'));
      await db.generations.end('u1', 'cancelled', FAILURE, AT, { onlyQueued: true });
      expect(await positions(db, ['c1', 'a2', 'a3', 'a4'])).toEqual({ c1: 0, a2: 1, a3: 2, a4: 3 });
    });

    it("places a key's next generation a round after its running one, so a key waiting alone does not go twice in a round", async () => {
      const db = database();
      await insertAll(db, [gen('a1', 'key_a', 1), gen('b1', 'key_b', 2), gen('b2', 'key_b', 3)]);
      await db.generations.start('a1', AT, claim('a1'));
      await db.generations.start('b1', AT, claim('b1'));
      // B's second (rank 1) is queued; A's next is after its running one (rank 0) and ties B's, behind it as younger.
      expect((await db.generations.insert(gen('a2', 'key_a', 4))).queue_rank).toBe(1);
      expect(await positions(db, ['b2', 'a2'])).toEqual({ b2: 0, a2: 1 });
    });

    it('serves the highest round running, whatever lower ranks still wait, and starts from 0 again once nothing is open', async () => {
      const db = database();
      const ranks = await insertAll(
        db,
        [1, 2, 3, 4, 5].map((n) => gen(`a${n}`, 'key_a', n)),
      );
      expect(Object.values(ranks)).toEqual([0, 1, 2, 3, 4]);
      for (const id of ['a1', 'a2', 'a3']) await db.generations.start(id, AT, claim(id));
      // Round 2 runs: a key arriving now lands there, not behind the rest of A's backlog.
      expect((await db.generations.insert(gen('b1', 'key_b', 6))).queue_rank).toBe(2);
      expect(await positions(db, ['b1', 'a4'])).toEqual({ b1: 0, a4: 1 });

      for (const id of ['a1', 'a2', 'a3']) await db.generations.end(id, 'failed', { error: 'x', code: 'GENERATION_FAILED' }, AT);
      for (const id of ['a4', 'a5', 'b1']) await db.generations.end(id, 'cancelled', FAILURE, AT, { onlyQueued: true });
      expect((await db.generations.insert(gen('c1', 'key_c', 7))).queue_rank).toBe(0);
    });

    it("ranks rows inserted together as one after another: each lane's in order, after its open ones", async () => {
      const db = database();
      await insertAll(db, [gen('a1', 'key_a', 1), gen('a2', 'key_a', 2)]);
      const stored = await db.generations.insertMany([
        gen('b1', 'key_b', 3),
        gen('a3', 'key_a', 3),
        gen('b2', 'key_b', 3),
        gen('b3', 'key_b', 3),
        gen('u1', 'user:carol', 3),
      ]);
      expect(stored.map((row) => [row.id, row.queue_rank])).toEqual([
        ['b1', 0],
        ['a3', 2],
        ['b2', 1],
        ['b3', 2],
        ['u1', 0],
      ]);
      expect(await db.generations.findAny('b3')).toMatchObject({ queue_rank: 2, key_id: 'key_b', status: 'queued' });
      expect(await db.generations.insertMany([])).toEqual([]);
      // Equal ranks go oldest first, then by id: a1 and b1 at 0 (a1 older), u1 at 0 (same second as b1, later id).
      expect(await positions(db, ['a1', 'b1', 'u1', 'a2', 'b2', 'a3', 'b3'])).toEqual({ a1: 0, b1: 1, u1: 2, a2: 3, b2: 4, a3: 5, b3: 6 });
    });

    it("ranks a batch's generations as rows inserted together, in a queue of their own, and a prompt's late generation after them", async () => {
      const db = database();
      await insertAll(db, [gen('a1', 'key_a', 1), gen('b1', 'key_b', 2)]);
      const row = batch({ id: 'batch_1', key_id: 'key_b', total_prompts: 3 });
      const prompts = items('batch_1', 3).map((item) => ({ ...item, generation_id: `gen_batch_${item.idx}` }));
      const rows = prompts.map((item) =>
        generation({
          id: `gen_batch_${item.idx}`,
          key_id: 'key_b',
          prompt: item.prompt,
          image_id: item.image_id,
          created_at: '2026-11-01T10:00:03.000Z',
          webhook_url: null,
          webhook_events: null,
          batch_id: 'batch_1',
          batch_idx: item.idx,
        }),
      );
      const created = await db.batches.create(row, prompts, rows);
      // Batches' prompts run in a job queue of their own: they start their own rounds, apart from single generations.
      expect(created.map((stored) => [stored.id, stored.queue_rank])).toEqual([
        ['gen_batch_0', 0],
        ['gen_batch_1', 1],
        ['gen_batch_2', 2],
      ]);
      const ranks = async (ids: string[]) => Promise.all(ids.map(async (id) => (await db.generations.findAny(id))?.queue_rank));
      expect(await ranks(['gen_batch_0', 'gen_batch_1', 'gen_batch_2'])).toEqual([0, 1, 2]);
      // A prompt of an older batch gets its generation when it runs: ranked then, in its key's lane.
      await db.batches.create(batch({ id: 'batch_2', key_id: 'key_b', total_prompts: 1 }), items('batch_2', 1));
      const late = await db.generations.ensureForBatchItem(
        generation({
          id: 'gen_late',
          key_id: 'key_b',
          image_id: 'img_batch_2_0',
          created_at: '2026-11-01T10:00:04.000Z',
          webhook_url: null,
          webhook_events: null,
          batch_id: 'batch_2',
          batch_idx: 0,
        }),
      );
      expect(late.queue_rank).toBe(3);
      // A position counts its own queue only.
      expect(await positions(db, ['a1', 'b1', 'gen_batch_0', 'gen_late'])).toEqual({ a1: 0, b1: 1, gen_batch_0: 0, gen_late: 3 });
      // Another key's batch lands in the batch queue's current round, as a single generation does in its own.
      const other = await db.batches.create(batch({ id: 'batch_3', key_id: 'key_c', total_prompts: 1 }), items('batch_3', 1), [
        generation({
          id: 'gen_c',
          key_id: 'key_c',
          image_id: 'img_batch_3_0',
          created_at: '2026-11-01T10:00:05.000Z',
          webhook_url: null,
          webhook_events: null,
          batch_id: 'batch_3',
          batch_idx: 0,
        }),
      ]);
      expect(other.map((stored) => stored.queue_rank)).toEqual([0]);
      expect(await positions(db, ['gen_c'])).toEqual({ gen_c: 1 });
    });
  });
}
