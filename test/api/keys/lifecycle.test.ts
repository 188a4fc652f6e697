import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { inProcessOnly } from '../../../src/test-support/in-process-only.js';
import { as, createKeyFor } from './key-helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

interface KeyRecord {
  id: string;
  key?: string;
  prefix: string;
  user_id: string;
  permissions: string[];
  plan: string;
  rate_limit: number;
  status: string;
  last_used_at: string | null;
  expires_at: string | null;
}

describe('API key lifecycle', () => {
  it('creates a key: 201, the secret once in `key`, a recognisable prefix, the record without the hash', async () => {
    const res = await h.call('POST', '/api/keys', { name: 'ci', permissions: ['generate', 'read'], plan: 'pro' });
    expect(res.status).toBe(201);
    const key = await json<KeyRecord & Record<string, unknown>>(res);
    expect(key.key).toMatch(/^igk_live_[A-Za-z0-9_-]{32}$/);
    expect(key).toMatchObject({
      name: 'ci',
      user_id: 'admin',
      permissions: ['generate', 'read'],
      plan: 'pro',
      rate_limit: 500,
      status: 'active',
      last_used_at: null,
    });
    expect(key.prefix).toBe(key.key?.slice(0, 15));
    expect(key).not.toHaveProperty('hash');
    expect((await as(h, key.key ?? '', 'GET', '/api/images')).status).toBe(200);
  });

  inProcessOnly.it('stores only a SHA-256 hash of the secret', async () => {
    const key = await createKeyFor(h, { name: 'ci', permissions: ['read'] });
    const row = await h.deps.db.apiKeys.find(key.id);
    expect(row?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.key);
  });

  it('lists keys without their secrets', async () => {
    const created = await createKeyFor(h, { name: 'ci', permissions: ['read'] });
    const body = await json<{ keys: KeyRecord[] }>(await h.call('GET', '/api/keys'));
    expect(body.keys.map((k) => k.id)).toContain(created.id);
    expect(JSON.stringify(body)).not.toContain(created.key);
    expect(body.keys.every((k) => k.key === undefined)).toBe(true);
  });

  it('revokes a key: 200, then that key gets 401', async () => {
    const created = await createKeyFor(h, { name: 'ci', permissions: ['read'] });
    const res = await h.call('DELETE', `/api/keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: created.id, revoked: true });
    const after = await as(h, created.key, 'GET', '/api/images');
    expect(after.status).toBe(401);
    expect(after.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect((await h.call('DELETE', `/api/keys/${created.id}`)).status).toBe(404);
    const listed = await json<{ keys: KeyRecord[] }>(await h.call('GET', '/api/keys'));
    expect(listed.keys.find((k) => k.id === created.id)?.status).toBe('revoked');
  });

  it('expires a key at expires_at', async () => {
    const created = await createKeyFor(h, { name: 'short', permissions: ['read'], expires_at: '2026-11-20T10:05:00Z' });
    expect((await as(h, created.key, 'GET', '/api/images')).status).toBe(200);
    h.clock.set('2026-11-20T10:05:00.000Z');
    expect((await as(h, created.key, 'GET', '/api/images')).status).toBe(401);
  });

  inProcessOnly.it('records last_used_at at most once a minute, not on every request', async () => {
    const created = await createKeyFor(h, { name: 'ci', permissions: ['read'] });
    const writes: string[] = [];
    const touch = h.deps.db.apiKeys.touch.bind(h.deps.db.apiKeys);
    h.deps.db.apiKeys.touch = async (id, at) => {
      if (id === created.id) writes.push(at);
      await touch(id, at);
    };
    for (let i = 0; i < 5; i += 1) await as(h, created.key, 'GET', '/api/images');
    h.clock.advance(61_000);
    for (let i = 0; i < 5; i += 1) await as(h, created.key, 'GET', '/api/images');
    expect(writes).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-20T10:01:01.000Z']);
    expect((await h.deps.db.apiKeys.find(created.id))?.last_used_at).toBe('2026-11-20T10:01:01.000Z');
  });

  it.each([
    [{ name: 'x', permissions: [] }, 'permissions'],
    [{ name: 'x', permissions: ['admin'] }, 'permissions.0'],
    [{ name: 'x', permissions: ['read'], plan: 'gold' }, 'plan'],
    [{ name: 'x', permissions: ['read'], plan: 'enterprise' }, 'rate_limit'],
    [{ name: 'x', permissions: ['read'], rate_limit: 50 }, 'rate_limit'],
    [{ name: 'x', permissions: ['read'], expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'x', permissions: ['read'], expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    [{ permissions: ['read'] }, 'name'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await h.call('POST', '/api/keys', body);
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ field });
  });
});

describe('who may create which keys', () => {
  it('lets only an admin key create keys for another user', async () => {
    const admin = await h.call('POST', '/api/keys', { name: 'for alice', permissions: ['read'], user_id: 'alice' });
    expect(admin.status).toBe(201);
    expect((await json(admin)).user_id).toBe('alice');

    const alice = await createKeyFor(h, { name: 'alice manage', permissions: ['manage'], user_id: 'alice' });
    const res = await as(h, alice.key, 'POST', '/api/keys', { name: 'for bob', permissions: ['read'], user_id: 'bob' });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ code: 'FORBIDDEN' });
    const own = await as(h, alice.key, 'POST', '/api/keys', { name: 'for me', permissions: ['generate', 'read'] });
    expect(own.status).toBe(201);
    expect((await json(own)).user_id).toBe('alice');
  });

  it('never lets a key create one on a higher plan or limit than its own', async () => {
    const standard = await createKeyFor(h, { name: 'std', permissions: ['manage'], user_id: 'alice' });
    expect((await as(h, standard.key, 'POST', '/api/keys', { name: 'p', permissions: ['read'], plan: 'pro' })).status).toBe(403);
    expect((await as(h, standard.key, 'POST', '/api/keys', { name: 'e', permissions: ['read'], plan: 'enterprise', rate_limit: 10_000 })).status).toBe(403);
    expect((await as(h, standard.key, 'POST', '/api/keys', { name: 's', permissions: ['read'] })).status).toBe(201);
  });

  it('lets an admin list keys of any user, and nobody else', async () => {
    await createKeyFor(h, { name: 'a', permissions: ['read'], user_id: 'alice' });
    const all = await json<{ keys: KeyRecord[] }>(await h.call('GET', '/api/keys?user_id=alice'));
    expect(all.keys.map((k) => k.user_id)).toEqual(['alice']);
    const alice = await createKeyFor(h, { name: 'alice manage', permissions: ['manage'], user_id: 'alice' });
    expect((await as(h, alice.key, 'GET', '/api/keys?user_id=admin')).status).toBe(403);
  });
});

describe('401 answers', () => {
  it.each([
    ['no header', undefined],
    ['an empty bearer', 'Bearer '],
    ['another scheme', `Basic ${TEST_KEY}`],
    ['a key with spaces', `Bearer ${TEST_KEY} extra`],
    ['an unknown key', 'Bearer igk_live_unknownunknownunknownunknown1'],
  ])('answer %s with a JSON 401 and WWW-Authenticate: Bearer', async (_case, header) => {
    const res = await h.app.request('/api/images', { headers: header === undefined ? {} : { Authorization: header } });
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await json(res)).toMatchObject({ error: 'Invalid API key', code: 'UNAUTHORIZED', details: { message: expect.any(String) } });
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
  });

  it('accepts the scheme in any case', async () => {
    expect((await h.app.request('/api/images', { headers: { Authorization: `BEARER ${TEST_KEY}` } })).status).toBe(200);
  });
});
