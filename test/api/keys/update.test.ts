import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { ENV_ADMIN_KEY_ID } from '../../../src/domain/keys/bootstrap-admin-key.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, HARNESS_TARGET, json, testCpuPool, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from './key-helpers.js';

/** $0.003 a picture, flat: budgets in whole pictures. */
const MODEL = 'replicate/black-forest-labs/flux-schnell';
const PRICE = 0.003;
const BODY = { prompt: 'a lighthouse on a cliff', model: MODEL, width: 256, height: 256 };

let h: Harness;
beforeEach(async () => {
  // A stand-in for Replicate that draws offline, so generations cost money without leaving the machine.
  const real = createProceduralProvider(testCpuPool());
  const replicate: ImageProvider = { id: 'replicate', generate: (request, options) => real.generate(request, options) };
  h = await createHarness({ providers: { replicate } });
  h.clock.set('2026-11-20T10:00:00.000Z');
});
afterEach(async () => {
  await h.close();
});

interface KeyRecord {
  id: string;
  name: string;
  plan: string;
  rate_limit: number;
  status: string;
  expires_at: string | null;
  daily_budget_usd: number | null;
  monthly_budget_usd: number | null;
  spend: { today_usd: number; this_month_usd: number };
}
interface ErrorBody {
  error: string;
  code: string;
  details: { field?: string; message?: string };
}

const patch = (id: string, body: unknown) => h.call('PATCH', `/api/keys/${id}`, body);

describe('changing a key (PATCH /api/keys/{id})', () => {
  it('changes name, budgets, plan and expiry, and answers the key as GET /api/keys lists it, spend included', async () => {
    const { id, key } = await createKeyFor(h, { name: 'ci', permissions: ['generate', 'read'], daily_budget_usd: 1 });
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    const res = await patch(id, {
      name: 'ci-2',
      daily_budget_usd: 0.5,
      monthly_budget_usd: 10,
      plan: 'enterprise',
      rate_limit: 250,
      expires_at: '2027-01-01T00:00:00Z',
    });
    expect(res.status).toBe(200);
    const changed = await json<KeyRecord>(res);
    expect(changed).toMatchObject({
      id,
      name: 'ci-2',
      daily_budget_usd: 0.5,
      monthly_budget_usd: 10,
      plan: 'enterprise',
      rate_limit: 250,
      expires_at: '2027-01-01T00:00:00.000Z',
      status: 'active',
    });
    expect(changed.spend).toEqual({ today_usd: PRICE, this_month_usd: PRICE });
    const listed = await json<{ keys: KeyRecord[] }>(await h.call('GET', '/api/keys'));
    expect(listed.keys.find((k) => k.id === id)).toEqual(changed);

    const cleared = await json<KeyRecord>(await patch(id, { daily_budget_usd: null, expires_at: null, plan: 'pro' }));
    expect(cleared).toMatchObject({ name: 'ci-2', daily_budget_usd: null, monthly_budget_usd: 10, expires_at: null, plan: 'pro', rate_limit: 500 });
  });

  it('applies a lowered daily budget to the very next generation: 402 BUDGET_EXCEEDED', async () => {
    const { id, key } = await createKeyFor(h, { name: 'spender', permissions: ['generate', 'read'], daily_budget_usd: 1 });
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    expect((await patch(id, { daily_budget_usd: PRICE * 2.5 })).status).toBe(200);
    const refused = await as(h, key, 'POST', '/api/generate', BODY);
    expect(refused.status).toBe(402);
    expect(await json(refused)).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { budget: 'daily', limit_usd: PRICE * 2.5 } });
    expect((await patch(id, { daily_budget_usd: null })).status).toBe(200);
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
  });

  it('expires a key from the next request when its expiry is moved closer', async () => {
    const { id, key } = await createKeyFor(h, { name: 'short', permissions: ['read'] });
    expect((await patch(id, { expires_at: '2026-11-20T10:01:00Z' })).status).toBe(200);
    expect((await as(h, key, 'GET', '/api/images')).status).toBe(200);
    h.clock.set('2026-11-20T10:01:00.000Z');
    expect((await as(h, key, 'GET', '/api/images')).status).toBe(401);
  });

  it('does not let a budgeted key raise or clear its own budget, only lower it (403)', async () => {
    const own = await createKeyFor(h, { name: 'self', permissions: ['manage'], user_id: 'alice', daily_budget_usd: 2, monthly_budget_usd: 20 });
    for (const body of [{ daily_budget_usd: 3 }, { daily_budget_usd: null }, { monthly_budget_usd: 21 }, { monthly_budget_usd: null }]) {
      const res = await as(h, own.key, 'PATCH', `/api/keys/${own.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect((await json<ErrorBody>(res)).details.message).toMatch(/budget of \$(2|20), so the keys it creates or changes need/);
    }
    const lowered = await as(h, own.key, 'PATCH', `/api/keys/${own.id}`, { daily_budget_usd: 1, name: 'self, lowered' });
    expect(lowered.status).toBe(200);
    expect(await json(lowered)).toMatchObject({ daily_budget_usd: 1, monthly_budget_usd: 20 });
  });

  it('does not let a key give a plan or rate limit above its own (403)', async () => {
    const standard = await createKeyFor(h, { name: 'std', permissions: ['manage'], user_id: 'alice' });
    const child = await json<{ id: string }>(await as(h, standard.key, 'POST', '/api/keys', { name: 'child', permissions: ['read'] }));
    expect((await as(h, standard.key, 'PATCH', `/api/keys/${child.id}`, { plan: 'pro' })).status).toBe(403);
    expect((await as(h, standard.key, 'PATCH', `/api/keys/${standard.id}`, { plan: 'enterprise', rate_limit: 10_000 })).status).toBe(403);
    const enterprise = await createKeyFor(h, { name: 'ent', permissions: ['manage'], user_id: 'alice', plan: 'enterprise', rate_limit: 200 });
    expect((await as(h, enterprise.key, 'PATCH', `/api/keys/${child.id}`, { plan: 'enterprise', rate_limit: 201 })).status).toBe(403);
    expect(await json(await as(h, enterprise.key, 'PATCH', `/api/keys/${child.id}`, { plan: 'enterprise', rate_limit: 150 }))).toMatchObject({
      plan: 'enterprise',
      rate_limit: 150,
    });
  });

  it("answers 404 for another user's key, as if it did not exist", async () => {
    const bobs = await createKeyFor(h, { name: 'bob', permissions: ['read'], user_id: 'bob' });
    const alice = await createKeyFor(h, { name: 'alice', permissions: ['manage'], user_id: 'alice' });
    const res = await as(h, alice.key, 'PATCH', `/api/keys/${bobs.id}`, { name: 'mine now' });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ code: 'NOT_FOUND', details: { key_id: bobs.id } });
    expect((await patch('key_nope', { name: 'x' })).status).toBe(404);
    // The row itself, where the test can read it: bob's key kept its name.
    if (HARNESS_TARGET === 'in-process') expect((await h.deps.db.apiKeys.find(bobs.id))?.name).toBe('bob');
  });

  it('refuses a revoked key with 409, saying it is revoked', async () => {
    const { id } = await createKeyFor(h, { name: 'gone', permissions: ['read'] });
    expect((await h.call('DELETE', `/api/keys/${id}`)).status).toBe(200);
    const res = await patch(id, { name: 'back' });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ error: 'Key is revoked', code: 'CONFLICT', details: { key_id: id, message: expect.stringContaining('revoked') } });
  });

  it('refuses the ADMIN_API_KEY key with 409: the environment sets it', async () => {
    const res = await patch(ENV_ADMIN_KEY_ID, { daily_budget_usd: 1 });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({
      error: 'Key is managed by the environment',
      code: 'CONFLICT',
      details: { message: expect.stringContaining('ADMIN_API_KEY') },
    });
  });
});

describe('bodies PATCH /api/keys/{id} refuses (400, in words)', () => {
  const LISTED = 'name, daily_budget_usd, monthly_budget_usd, plan, rate_limit, expires_at';

  it('refuses an empty object and an empty body, saying which fields can be sent', async () => {
    const { id } = await createKeyFor(h, { name: 'k', permissions: ['read'] });
    const empty = await patch(id, {});
    expect(empty.status).toBe(400);
    expect(await json<ErrorBody>(empty)).toMatchObject({
      code: 'INVALID_REQUEST_BODY',
      details: `the request body must change something: send one or more of ${LISTED}`,
    });
    const none = await h.app.request(`/api/keys/${id}`, {
      method: 'PATCH',
      headers: { Authorization: 'Bearer igk_test_harness_key', 'Content-Type': 'application/json' },
    });
    expect(none.status).toBe(400);
    expect(await json(none)).toMatchObject({ code: 'INVALID_REQUEST_BODY', details: expect.stringContaining('the request body is empty') });
  });

  it.each([
    ['permissions', { permissions: ['manage'] }],
    ['user_id', { name: 'x', user_id: 'bob' }],
  ])('refuses the unknown field %s by name, listing the fields that can be sent', async (field, body) => {
    const { id } = await createKeyFor(h, { name: 'k', permissions: ['read'] });
    const res = await patch(id, body);
    expect(res.status).toBe(400);
    const error = await json<ErrorBody>(res);
    expect(error.details).toMatchObject({ field, message: `${field} is not something PATCH /api/keys/{id} can change; send one or more of ${LISTED}` });
  });

  it.each([
    [{ daily_budget_usd: -1 }, 'daily_budget_usd', 'daily_budget_usd must be 0 or more'],
    [{ monthly_budget_usd: 'lots' }, 'monthly_budget_usd', 'monthly_budget_usd must be a number of USD, 0 or more, or null for none'],
    [{ name: '  ' }, 'name', 'name must not be empty'],
    [{ plan: 'gold' }, 'plan', 'plan must be one of "standard", "pro", "enterprise" (got "gold")'],
    [{ rate_limit: 50 }, 'rate_limit', 'rate_limit applies to enterprise keys only; the standard plan allows 100 requests per minute'],
    [{ plan: 'enterprise' }, 'rate_limit', 'enterprise keys need rate_limit (requests per minute)'],
    [{ expires_at: 'tomorrow' }, 'expires_at', 'expires_at must be an ISO 8601 timestamp (2026-11-01T12:00:00Z) (got "tomorrow")'],
    [{ expires_at: '2026-11-20T09:59:59Z' }, 'expires_at', 'expires_at must be in the future (it is 2026-11-20T10:00:00Z now)'],
  ])('refuses %j naming %s', async (body, field, message) => {
    const { id } = await createKeyFor(h, { name: 'k', permissions: ['read'] });
    const res = await patch(id, body);
    expect(res.status).toBe(400);
    expect((await json<ErrorBody>(res)).details).toMatchObject({ field, message });
  });
});
