import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingStandIn, type StandIn } from '../../../src/test-support/stand-in-provider.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from './key-helpers.js';

/** $0.003 a picture, flat: budgets in whole pictures. */
const MODEL = 'replicate/black-forest-labs/flux-schnell';
const PRICE = 0.003;
const BODY = { prompt: 'a lighthouse on a cliff', model: MODEL, width: 256, height: 256 };

let h: Harness;
let standIn: StandIn;
beforeEach(async () => {
  standIn = countingStandIn();
  // One batch item at a time: items running at the same moment are not counted against each other (see docs/spending.md).
  h = await createHarness({ providers: { replicate: standIn.provider }, batch: { concurrency: 1 } });
  h.clock.set('2026-11-20T10:00:00.000Z');
});
afterEach(async () => {
  await h.close();
});

const budgetKey = (budgets: Record<string, number>) => createKeyFor(h, { name: 'budgeted', permissions: ['generate', 'read'], ...budgets });

describe('spend limits per key', () => {
  it('refuses a generation past the daily budget with 402 before calling the provider, and resets the next UTC day', async () => {
    const { key, id } = await budgetKey({ daily_budget_usd: PRICE * 2.5 });
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    const refused = await as(h, key, 'POST', '/api/generate', BODY);
    expect(refused.status).toBe(402);
    const body = await json<{ code: string; details: Record<string, unknown> }>(refused);
    expect(body.code).toBe('BUDGET_EXCEEDED');
    expect(body.details).toMatchObject({
      budget: 'daily',
      limit_usd: PRICE * 2.5,
      spent_usd: PRICE * 2,
      remaining_usd: PRICE * 0.5,
      resets_at: '2026-11-21T00:00:00.000Z',
    });
    expect(standIn.calls()).toBe(2);

    const keys = await json<{ keys: { id: string; daily_budget_usd: number | null; monthly_budget_usd: number | null; spend: unknown }[] }>(
      await h.call('GET', '/api/keys'),
    );
    expect(keys.keys.find((k) => k.id === id)).toMatchObject({
      daily_budget_usd: PRICE * 2.5,
      monthly_budget_usd: null,
      spend: { today_usd: PRICE * 2, this_month_usd: PRICE * 2 },
    });

    h.clock.set('2026-11-21T00:00:01.000Z');
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    const after = await json<{ keys: { id: string; spend: unknown }[] }>(await h.call('GET', '/api/keys'));
    expect(after.keys.find((k) => k.id === id)?.spend).toEqual({ today_usd: PRICE, this_month_usd: 0.009 });
  });

  it('refuses past the monthly budget until the next UTC month, counting deleted images', async () => {
    const { key } = await createKeyFor(h, { name: 'm', permissions: ['manage'], monthly_budget_usd: PRICE * 1.5 });
    const first = await json<{ id: string }>(await as(h, key, 'POST', '/api/generate', BODY));
    expect((await as(h, key, 'DELETE', `/api/images/${first.id}`)).status).toBe(200);
    const refused = await as(h, key, 'POST', '/api/generate', BODY);
    expect(refused.status).toBe(402);
    expect((await json<{ details: unknown }>(refused)).details).toMatchObject({ budget: 'monthly', resets_at: '2026-12-01T00:00:00.000Z' });
    // Free models cost nothing, so they stay within any budget.
    expect((await as(h, key, 'POST', '/api/generate', { ...BODY, model: 'local/procedural' })).status).toBe(201);
    h.clock.set('2026-12-01T00:00:00.000Z');
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
  });

  it("charges a batch's items to the key that created it: items past the budget fail with the reason", async () => {
    const { key } = await budgetKey({ daily_budget_usd: PRICE * 1.5 });
    const created = await as(h, key, 'POST', '/api/batch/generate', {
      prompts: ['a red fox', 'a blue whale', 'a green frog'],
      model: MODEL,
      width: 256,
      height: 256,
    });
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);
    let batch = await json<{ status: string; completed_count: number; failed_count: number; errors: { error: string }[] }>(
      await as(h, key, 'GET', `/api/batch/${id}`),
    );
    for (let i = 0; i < 200 && batch.status !== 'completed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      batch = await json(await as(h, key, 'GET', `/api/batch/${id}`));
    }
    expect(batch).toMatchObject({ status: 'completed', completed_count: 1, failed_count: 2 });
    expect(batch.errors[0]?.error).toMatch(/daily budget/);
    expect(standIn.calls()).toBe(1);
  });

  it('answers /v1 past the budget as OpenAI does: 429 insufficient_quota, not to be retried', async () => {
    const { key } = await budgetKey({ daily_budget_usd: PRICE * 0.5 });
    const res = await as(h, key, 'POST', '/v1/images/generations', { prompt: 'a lake', model: MODEL, size: '256x256' });
    expect(res.status).toBe(429);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(await json(res)).toMatchObject({ error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
    expect(standIn.calls()).toBe(0);
  });

  it('checks budgets on key creation: not negative, and a budgeted key cannot create a key without one', async () => {
    expect((await h.call('POST', '/api/keys', { name: 'neg', permissions: ['read'], daily_budget_usd: -1 })).status).toBe(400);
    const parent = await createKeyFor(h, { name: 'parent', permissions: ['manage'], monthly_budget_usd: 10 });
    expect((await as(h, parent.key, 'POST', '/api/keys', { name: 'child', permissions: ['generate'] })).status).toBe(403);
    expect((await as(h, parent.key, 'POST', '/api/keys', { name: 'child', permissions: ['generate'], monthly_budget_usd: 20 })).status).toBe(403);
    const child = await as(h, parent.key, 'POST', '/api/keys', { name: 'child', permissions: ['generate'], monthly_budget_usd: 5 });
    expect(child.status).toBe(201);
    expect(await json(child)).toMatchObject({ monthly_budget_usd: 5, daily_budget_usd: null, spend: { today_usd: 0, this_month_usd: 0 } });
  });

  it('holds a budget across the keys its key creates: a spent key cannot spend again through a child or a grandchild', async () => {
    // The hostile test's case: a manage key spends its daily budget, creates a key with the same budget, and tries again.
    const parent = await createKeyFor(h, { name: 'parent', permissions: ['manage'], daily_budget_usd: PRICE });
    expect((await as(h, parent.key, 'POST', '/api/generate', BODY)).status).toBe(201);
    const childRes = await as(h, parent.key, 'POST', '/api/keys', { name: 'child', permissions: ['manage'], daily_budget_usd: PRICE });
    expect(childRes.status).toBe(201);
    const child = await json<{ id: string; key: string }>(childRes);
    const refused = await as(h, child.key, 'POST', '/api/generate', BODY);
    expect(refused.status).toBe(402);
    const body = await json<{ details: { budget_key_id?: string; remaining_usd: number; message: string } }>(refused);
    expect(body.details).toMatchObject({ budget_key_id: parent.id, remaining_usd: 0 });
    expect(body.details.message).toContain(`key ${parent.id}, which created this key`);

    const grandchild = await json<{ key: string }>(
      await as(h, child.key, 'POST', '/api/keys', { name: 'grandchild', permissions: ['generate'], daily_budget_usd: PRICE }),
    );
    expect((await as(h, grandchild.key, 'POST', '/api/generate', BODY)).status).toBe(402);
    expect((await as(h, grandchild.key, 'POST', '/v1/images/generations', { prompt: 'a lake', model: MODEL, size: '256x256' })).status).toBe(429);
    expect(standIn.calls()).toBe(1);

    // The next UTC day the tree has its budget again, once, whichever key spends it.
    h.clock.set('2026-11-21T00:00:01.000Z');
    expect((await as(h, grandchild.key, 'POST', '/api/generate', BODY)).status).toBe(201);
    expect((await as(h, parent.key, 'POST', '/api/generate', BODY)).status).toBe(402);
    expect(standIn.calls()).toBe(2);
  });

  it('lets a child key neither raise nor remove the budget of a key that created it', async () => {
    const parent = await createKeyFor(h, { name: 'parent', permissions: ['manage'], daily_budget_usd: PRICE * 2 });
    const child = await json<{ id: string; key: string }>(
      await as(h, parent.key, 'POST', '/api/keys', { name: 'child', permissions: ['manage'], daily_budget_usd: PRICE * 2 }),
    );
    const raised = await as(h, child.key, 'PATCH', `/api/keys/${parent.id}`, { daily_budget_usd: PRICE });
    expect(raised.status).toBe(403);
    expect((await json<{ details: { message: string } }>(raised)).details.message).toMatch(/cannot change the budget of a key that created it/);
    expect((await as(h, child.key, 'PATCH', `/api/keys/${parent.id}`, { daily_budget_usd: null })).status).toBe(403);
    // Its own budget, and its children's, it may still lower.
    expect((await as(h, child.key, 'PATCH', `/api/keys/${child.id}`, { daily_budget_usd: PRICE })).status).toBe(200);
    // The admin may change any key's budget.
    expect((await h.call('PATCH', `/api/keys/${parent.id}`, { daily_budget_usd: PRICE * 3 })).status).toBe(200);
  });
});
