import { describe, expect, it } from 'vitest';
import type { ApiKeyRow } from '../../ports/database.js';
import { createTestClock } from '../../test-support/harness.js';
import { withKeyCache } from './cached-api-keys.js';
import { createSqliteDatabase } from './sqlite.js';

const key = (over: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
  id: 'key_1',
  user_id: 'alice',
  name: 'k',
  prefix: 'igk_live_abc',
  hash: 'h1',
  permissions: ['read'],
  plan: 'standard',
  rate_limit: null,
  is_admin: false,
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  ...over,
});

async function fixture() {
  const db = createSqliteDatabase(':memory:');
  await db.migrate();
  const clock = createTestClock();
  let lookups = 0;
  const counted = { ...db.apiKeys, findByHash: (hash: string) => ((lookups += 1), db.apiKeys.findByHash(hash)) };
  return { db, clock, cached: withKeyCache(counted, clock, 500), lookups: () => lookups };
}

describe('the API key cache', () => {
  it('answers repeated lookups of a key from memory until it expires', async () => {
    const f = await fixture();
    await f.cached.insert(key());
    for (let i = 0; i < 5; i += 1) expect((await f.cached.findByHash('h1'))?.id).toBe('key_1');
    expect(f.lookups()).toBe(1);
    f.clock.advance(501);
    await f.cached.findByHash('h1');
    expect(f.lookups()).toBe(2);
    await f.db.close();
  });

  it('forgets a key the moment this process revokes it', async () => {
    const f = await fixture();
    await f.cached.insert(key());
    await f.cached.findByHash('h1');
    expect(await f.cached.revoke(undefined, 'key_1', '2026-11-20T10:00:01.000Z')).toBe(true);
    expect((await f.cached.findByHash('h1'))?.revoked_at).toBe('2026-11-20T10:00:01.000Z');
    await f.db.close();
  });

  it('forgets a key the moment this process changes it, and sees a change by another process once the entry expires', async () => {
    const f = await fixture();
    await f.cached.insert(key({ daily_budget_usd: 5 }));
    await f.cached.findByHash('h1');
    expect((await f.cached.update(undefined, 'key_1', { daily_budget_usd: 1 }))?.daily_budget_usd).toBe(1);
    expect((await f.cached.findByHash('h1'))?.daily_budget_usd).toBe(1);
    await f.db.apiKeys.update(undefined, 'key_1', { daily_budget_usd: 0.5 });
    expect((await f.cached.findByHash('h1'))?.daily_budget_usd).toBe(1);
    f.clock.advance(501);
    expect((await f.cached.findByHash('h1'))?.daily_budget_usd).toBe(0.5);
    await f.db.close();
  });

  it('sees a revocation by another process once the entry expires', async () => {
    const f = await fixture();
    await f.cached.insert(key());
    await f.cached.findByHash('h1');
    await f.db.apiKeys.revoke(undefined, 'key_1', '2026-11-20T10:00:01.000Z');
    expect((await f.cached.findByHash('h1'))?.revoked_at).toBeNull();
    f.clock.advance(501);
    expect((await f.cached.findByHash('h1'))?.revoked_at).toBe('2026-11-20T10:00:01.000Z');
    await f.db.close();
  });

  it('does not keep a miss once the key is created here', async () => {
    const f = await fixture();
    expect(await f.cached.findByHash('h1')).toBeUndefined();
    await f.cached.insert(key());
    expect((await f.cached.findByHash('h1'))?.id).toBe('key_1');
    await f.db.close();
  });
});
