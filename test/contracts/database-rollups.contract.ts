import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Database, ImageRow, TimeRange } from '../../src/ports/database.js';
import { image } from './database-rows.js';

const START = Date.parse('2026-10-30T00:00:00.000Z');

interface Generated {
  images: { offsetMinutes: number; model: 'm1' | 'm2'; cost: number; user: 'alice' | 'bob'; deleted: boolean }[];
  ranges: { from?: number; to?: number }[];
}

const arbitrary: fc.Arbitrary<Generated> = fc.record({
  images: fc.array(
    fc.record({
      offsetMinutes: fc.integer({ min: 0, max: 5 * 24 * 60 }),
      model: fc.constantFrom('m1' as const, 'm2' as const),
      cost: fc.constantFrom(0, 0.003, 0.04, 0.25),
      user: fc.constantFrom('alice' as const, 'bob' as const),
      deleted: fc.boolean(),
    }),
    { maxLength: 25 },
  ),
  ranges: fc.array(
    fc.record({
      from: fc.option(fc.integer({ min: -60, max: 6 * 24 * 60 }), { nil: undefined }),
      to: fc.option(fc.integer({ min: -60, max: 6 * 24 * 60 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

const iso = (minutes: number): string => new Date(START + minutes * 60_000).toISOString();

/** What the answers must be, computed the slow way from the rows themselves. */
function expected(rows: readonly ImageRow[], userId: string, range: TimeRange) {
  const mine = rows.filter(
    (row) => row.user_id === userId && (range.from === undefined || row.created_at >= range.from) && (range.to === undefined || row.created_at < range.to),
  );
  const byModel = new Map<string, number>();
  const byDay = new Map<string, number>();
  for (const row of mine) {
    byModel.set(row.model, (byModel.get(row.model) ?? 0) + 1);
    byDay.set(row.created_at.slice(0, 10), (byDay.get(row.created_at.slice(0, 10)) ?? 0) + 1);
  }
  return {
    images: mine.length,
    deleted: mine.filter((row) => row.is_deleted).length,
    cost: mine.reduce((total, row) => total + row.cost, 0),
    byModel: [...byModel].sort(([a], [b]) => (a < b ? -1 : 1)),
    byDay: [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}

/**
 * Counters and daily rollups are kept beside the images; whatever was inserted and deleted, and whatever
 * range is asked (whole days, parts of days, open ends), they must agree with the images exactly.
 */
export function describeRollupContract(fresh: () => Promise<Database>): void {
  it('keeps totals and usage equal to what the images say, for any inserts, deletes and ranges', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ images, ranges }) => {
        const db = await fresh();
        try {
          const rows: ImageRow[] = [];
          for (const [index, spec] of images.entries()) {
            const row = image({
              id: `img_${index}`,
              user_id: spec.user,
              model: spec.model,
              cost: spec.cost,
              created_at: iso(spec.offsetMinutes),
              r2_key: `generated/img_${index}.png`,
            });
            await db.images.insert(row);
            rows.push(row);
          }
          for (const [index, spec] of images.entries()) {
            if (!spec.deleted) continue;
            const row = rows[index];
            if (row === undefined) continue;
            expect(await db.images.softDelete(spec.user, row.id, iso(spec.offsetMinutes + 1))).toBe(true);
            rows[index] = { ...row, is_deleted: true };
          }
          for (const user of ['alice', 'bob']) {
            const live = rows.filter((row) => row.user_id === user && !row.is_deleted).length;
            expect((await db.images.listLive(user, { limit: 1, offset: 0 })).total).toBe(live);
            for (const { from, to } of ranges) {
              const range: TimeRange = { from: from === undefined ? undefined : iso(from), to: to === undefined ? undefined : iso(to) };
              if (range.from !== undefined && range.to !== undefined && range.from >= range.to) continue;
              const want = expected(rows, user, range);
              const got = await db.analytics.usage(user, range);
              expect({ images: got.images, deleted: got.deleted_images }).toEqual({ images: want.images, deleted: want.deleted });
              expect(got.cost).toBeCloseTo(want.cost, 9);
              expect(got.by_model.map((b) => [b.key, b.images])).toEqual(want.byModel);
              expect(got.by_day.map((b) => [b.key, b.images])).toEqual(want.byDay);
            }
          }
        } finally {
          await db.close();
        }
      }),
      { seed: 20261123, numRuns: 25 },
    );
  }, 120_000);
}
