import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/ports/rate-limiter.js';

export interface RateLimiterFixture {
  limiter: RateLimiter;
  /** Moves the clock the limiter (and its peers) read. */
  setTime(iso: string): void;
  /** Another instance on the same counters, as in a second API process; for adapters that share. */
  peer?(): Promise<RateLimiter>;
}

/**
 * One behaviour suite for every RateLimiter adapter. With `shared`, the adapter promises that its
 * instances count together, and the fixture must give a `peer`.
 */
export function describeRateLimiterContract(name: string, open: () => Promise<RateLimiterFixture>, options: { shared?: boolean } = {}): void {
  describe(`RateLimiter contract: ${name}`, () => {
    it('allows exactly the limit under concurrency, with remaining counting down', async () => {
      const { limiter, setTime } = await open();
      setTime('2026-11-20T10:00:30.000Z');
      const decisions = await Promise.all(Array.from({ length: 15 }, () => limiter.consume('key-a', 10)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      expect(decisions.map((d) => d.remaining).sort((a, b) => a - b)).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(new Set(decisions.map((d) => d.resetAt))).toEqual(new Set([Date.parse('2026-11-20T10:01:00.000Z')]));
    });

    it('starts a fresh window on the next wall-clock minute', async () => {
      const { limiter, setTime } = await open();
      setTime('2026-11-20T10:00:59.000Z');
      expect((await limiter.consume('key-b', 1)).allowed).toBe(true);
      expect((await limiter.consume('key-b', 1)).allowed).toBe(false);
      setTime('2026-11-20T10:01:00.000Z');
      expect(await limiter.consume('key-b', 1)).toMatchObject({ allowed: true, remaining: 0, resetAt: Date.parse('2026-11-20T10:02:00.000Z') });
    });

    it('counts keys separately', async () => {
      const { limiter } = await open();
      expect((await limiter.consume('key-c', 1)).allowed).toBe(true);
      expect((await limiter.consume('key-d', 1)).allowed).toBe(true);
      expect((await limiter.consume('key-c', 1)).allowed).toBe(false);
    });

    if (options.shared === true) {
      it("shares each key's limit exactly between instances (API processes)", async () => {
        const { limiter, setTime, peer } = await open();
        if (peer === undefined) throw new Error("a shared adapter's fixture must give a peer");
        const other = await peer();
        setTime('2026-11-20T10:00:30.000Z');
        const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? limiter : other).consume('key-e', 100)));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
        expect(
          decisions
            .filter((d) => d.allowed)
            .map((d) => d.remaining)
            .sort((a, b) => a - b),
        ).toEqual(Array.from({ length: 100 }, (_, i) => i));
        expect((await other.consume('key-f', 100)).remaining).toBe(99);
      });
    }
  });
}
