import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/ports/database.js';
import { eachMigratedDatabase } from './migrated-database.js';

const T0 = '2026-11-20T10:00:00.000Z';
const LATER = '2026-11-20T10:15:00.000Z';
const DAY = '2026-11-21T10:00:00.000Z';
const claim = (db: Database, overrides: Partial<Parameters<Database['idempotency']['claim']>[0]> = {}) =>
  db.idempotency.claim({ userId: 'alice', key: 'k1', fingerprint: 'f1', now: T0, expiresAt: LATER, ...overrides });

/** The idempotency port, against every adapter. */
export function describeIdempotencyContract(name: string, open: () => Promise<Database>): void {
  describe(`Idempotency contract: ${name}`, () => {
    let db: Database;
    eachMigratedDatabase(open, (opened) => (db = opened));

    it('claims a key once; the next claim sees it running, then done with its answer', async () => {
      expect(await claim(db)).toEqual({ kind: 'claimed' });
      const running = await claim(db);
      expect(running).toMatchObject({ kind: 'existing', record: { state: 'running', fingerprint: 'f1', response: undefined } });
      const response = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"img_1","text":"ünï"}' };
      await db.idempotency.complete('alice', 'k1', response, DAY);
      expect(await claim(db, { fingerprint: 'other' })).toEqual({
        kind: 'existing',
        record: { userId: 'alice', key: 'k1', fingerprint: 'f1', state: 'done', response, createdAt: T0, expiresAt: DAY },
      });
    });

    it('keeps keys per user', async () => {
      expect(await claim(db)).toEqual({ kind: 'claimed' });
      expect(await claim(db, { userId: 'bob' })).toEqual({ kind: 'claimed' });
    });

    it('lets exactly one of many racing claims win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => claim(db)));
      expect(results.filter((result) => result.kind === 'claimed')).toHaveLength(1);
    });

    it('treats an expired row as absent and overwrites it', async () => {
      await claim(db);
      await db.idempotency.complete('alice', 'k1', { status: 201, headers: {}, body: '{}' }, DAY);
      expect(await claim(db, { now: DAY, expiresAt: '2026-11-21T10:15:00.000Z', fingerprint: 'f2' })).toEqual({ kind: 'claimed' });
      expect(await claim(db, { now: DAY })).toMatchObject({ kind: 'existing', record: { state: 'running', fingerprint: 'f2', createdAt: DAY } });
    });

    it("renews a running claim's lease, so it outlives its first end; a done answer keeps its own", async () => {
      await claim(db, { expiresAt: '2026-11-20T10:00:15.000Z' });
      await db.idempotency.renew('alice', 'k1', '2026-11-20T10:01:00.000Z');
      expect(await claim(db, { now: '2026-11-20T10:00:30.000Z' })).toMatchObject({
        kind: 'existing',
        record: { state: 'running', expiresAt: '2026-11-20T10:01:00.000Z' },
      });
      // Not renewed again (its process stopped): once the lease ends, the key is free.
      expect(await claim(db, { now: '2026-11-20T10:01:00.001Z', expiresAt: LATER })).toEqual({ kind: 'claimed' });
      await db.idempotency.complete('alice', 'k1', { status: 201, headers: {}, body: '{}' }, DAY);
      await db.idempotency.renew('alice', 'k1', '2026-11-20T10:02:00.000Z');
      expect(await claim(db)).toMatchObject({ kind: 'existing', record: { state: 'done', expiresAt: DAY } });
      await db.idempotency.renew('bob', 'absent', DAY); // a key no longer held: nothing to do, no error
      expect(await claim(db, { userId: 'bob', key: 'absent' })).toEqual({ kind: 'claimed' });
    });

    it('releases a running claim so a retry can claim it; a done answer is never released', async () => {
      await claim(db);
      await db.idempotency.release('alice', 'k1');
      expect(await claim(db)).toEqual({ kind: 'claimed' });
      await db.idempotency.complete('alice', 'k1', { status: 400, headers: {}, body: '{}' }, DAY);
      await db.idempotency.release('alice', 'k1');
      expect(await claim(db)).toMatchObject({ kind: 'existing', record: { state: 'done' } });
    });
  });
}
