import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { ProviderJobAbandoned, ProviderOutcomeUnknown, ProviderRefusal, type ImageProvider } from '../../../src/ports/image-provider.js';
import { runBatchItem } from '../../../src/domain/batches/run-batch-item.js';
import { createHarness, json, testCpuPool, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from '../keys/key-helpers.js';

/** $0.003 a picture, flat: budgets in whole pictures. */
const MODEL = 'replicate/black-forest-labs/flux-schnell';
const PRICE = 0.003;
const BODY = { prompt: 'a lighthouse on a cliff', model: MODEL, width: 256, height: 256 };

type Behaviour = 'succeed' | 'refuse' | 'lose-answer' | 'abandon';

let h: Harness;
let calls = 0;
let next: Behaviour[] = [];
let delayMs = 0;
beforeEach(async () => {
  calls = 0;
  next = [];
  delayMs = 0;
  const real = createProceduralProvider(testCpuPool());
  // A stand-in for Replicate that draws offline, takes its time and ends each call as told.
  const replicate: ImageProvider = {
    id: 'replicate',
    async generate(request, options) {
      calls += 1;
      const behaviour = next.shift() ?? 'succeed';
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (behaviour === 'refuse') throw new ProviderRefusal('Replicate refused: NSFW content detected');
      if (behaviour === 'lose-answer') throw new ProviderOutcomeUnknown('Replicate: the connection was reset after the request was sent', false);
      if (behaviour === 'abandon') throw new ProviderJobAbandoned('Replicate prediction p1 did not finish within 120 s and was cancelled', 504);
      return real.generate(request, options);
    },
  };
  h = await createHarness({ providers: { replicate }, batch: { concurrency: 1 } });
  h.clock.set('2026-11-20T10:00:00.000Z');
});
afterEach(async () => {
  await h.close();
});

interface Charge {
  outcome: string;
  cost: number;
  estimated_cost: number;
  key_id: string | null;
  image_id: string | null;
}
const ledger = async (key?: string): Promise<Charge[]> => {
  const res = key === undefined ? await h.call('GET', '/api/analytics/charges?limit=100') : await as(h, key, 'GET', '/api/analytics/charges?limit=100');
  expect(res.status).toBe(200);
  return (await json<{ charges: Charge[] }>(res)).charges;
};

describe('budgets as reservations', () => {
  it('makes exactly as many of 20 concurrent generations as the daily budget fits, and refuses the rest with 402', async () => {
    delayMs = 700;
    const { key } = await createKeyFor(h, { name: 'five', permissions: ['generate', 'read'], daily_budget_usd: PRICE * 5 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => as(h, key, 'POST', '/api/generate', BODY)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(15);
    expect(calls).toBe(5);
    const charges = await ledger(key);
    expect(charges.map((charge) => charge.outcome)).toEqual(Array(5).fill('succeeded'));
  });

  it('gives the reservation of a refused call back, so the budget still fits what it did before', async () => {
    const { key } = await createKeyFor(h, { name: 'one', permissions: ['generate', 'read'], daily_budget_usd: PRICE });
    next = ['refuse'];
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(400);
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(201);
    // Both at the same (test) instant, so compared as a set.
    expect((await ledger(key)).map((charge) => [charge.outcome, charge.cost]).sort()).toEqual([
      ['not_charged', 0],
      ['succeeded', PRICE],
    ]);
  });
});

describe('the charge ledger', () => {
  it('records a lost answer as uncertain at its estimate, answers 502 that must not be retried, and counts it against the budget', async () => {
    const { key, id } = await createKeyFor(h, { name: 'k', permissions: ['generate', 'read'], daily_budget_usd: PRICE * 1.5 });
    next = ['lose-answer'];
    const lost = await as(h, key, 'POST', '/api/generate', BODY);
    expect(lost.status).toBe(502);
    expect(lost.headers.get('x-should-retry')).toBe('false');
    const body = await json<{ code: string; details: { outcome: string; message: string } }>(lost);
    expect(body.code).toBe('GENERATION_OUTCOME_UNKNOWN');
    expect(body.details.message).toMatch(/not sent again/);
    expect(calls).toBe(1);
    expect(await ledger(key)).toMatchObject([{ outcome: 'uncertain', cost: PRICE, estimated_cost: PRICE, key_id: id, image_id: null }]);
    // The uncertain call may have been paid: the budget, which fitted one and a half, now fits none.
    expect((await as(h, key, 'POST', '/api/generate', BODY)).status).toBe(402);
    const costs = await json<{ total_cost: number; total_images: number; ledger: { uncertain: { charges: number; cost: number } } }>(
      await as(h, key, 'GET', '/api/analytics/costs'),
    );
    expect(costs).toMatchObject({ total_cost: PRICE, total_images: 0, ledger: { uncertain: { charges: 1, cost: PRICE } } });
  });

  it('records a job given up on after the provider accepted it as charged without an image, with a 504', async () => {
    next = ['abandon'];
    const res = await h.call('POST', '/api/generate', BODY);
    expect(res.status).toBe(504);
    expect(await json(res)).toMatchObject({ code: 'PROVIDER_TIMEOUT', details: { outcome: 'charged' } });
    expect(await ledger()).toMatchObject([{ outcome: 'charged_no_image', cost: PRICE }]);
  });

  it('breaks costs down by key with ?key_id=, counting images and charges without an image', async () => {
    const a = await createKeyFor(h, { name: 'a', permissions: ['generate', 'read'] });
    const b = await createKeyFor(h, { name: 'b', permissions: ['generate', 'read'] });
    expect((await as(h, a.key, 'POST', '/api/generate', BODY)).status).toBe(201);
    expect((await as(h, a.key, 'POST', '/api/generate', BODY)).status).toBe(201);
    next = ['abandon'];
    expect((await as(h, a.key, 'POST', '/api/generate', BODY)).status).toBe(504);
    expect((await as(h, b.key, 'POST', '/api/generate', BODY)).status).toBe(201);
    const ofA = await json<Record<string, unknown>>(await h.call('GET', `/api/analytics/costs?key_id=${a.id}`));
    expect(ofA).toMatchObject({
      key_id: a.id,
      total_images: 2,
      total_cost: 0.009,
      by_model: [{ model: MODEL, images: 2, cost: 0.009 }],
      ledger: { charged_without_image: { charges: 1, cost: PRICE } },
    });
    const all = await json<Record<string, unknown>>(await h.call('GET', '/api/analytics/costs'));
    expect(all).toMatchObject({ key_id: null, total_images: 3, total_cost: 0.012 });
    const listed = await json<{ charges: Charge[] }>(await h.call('GET', `/api/analytics/charges?key_id=${b.id}`));
    expect(listed.charges).toHaveLength(1);
    expect(listed.charges[0]?.image_id).toMatch(/^img_/);
  });

  it('refuses an unknown outcome filter with a message naming the outcomes', async () => {
    const res = await h.call('GET', '/api/analytics/charges?outcome=lost');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await json(res))).toMatch(/outcome must be one of reserved, succeeded, not_charged, charged_no_image, uncertain/);
  });

  it('answers /v1 with the images made before the budget ran out, instead of none of them', async () => {
    const { key } = await createKeyFor(h, { name: 'two', permissions: ['generate', 'read'], daily_budget_usd: PRICE * 2 });
    const res = await as(h, key, 'POST', '/v1/images/generations', { prompt: 'a lake', model: MODEL, size: '256x256', n: 4 });
    expect(res.status).toBe(200);
    expect((await json<{ data: unknown[] }>(res)).data).toHaveLength(2);
    expect(calls).toBe(2);
  });
});

describe('a batch prompt whose earlier attempt died mid-call', () => {
  it('is failed as uncertain instead of sent again when the provider never told us its job', async () => {
    const idle = await createHarness({
      providers: { replicate: { id: 'replicate', generate: async () => ((calls += 1), Promise.reject(new Error('must not be called'))) } },
      workers: false,
    });
    try {
      const created = await idle.call('POST', '/api/batch/generate', { prompts: ['a red fox'], model: MODEL, width: 256, height: 256 });
      expect(created.status).toBe(201);
      const { id } = await json<{ id: string }>(created);
      const item = await idle.deps.db.batches.item(id, 0);
      // What a process that died between reserving and hearing back leaves behind.
      await idle.deps.db.charges.reserve(
        {
          id: 'chg_dead',
          user_id: 'admin',
          key_id: null,
          image_id: item?.image_id ?? '',
          model: MODEL,
          provider: 'replicate',
          provider_job_id: null,
          journal: null,
          estimated_usd: PRICE,
          cost_usd: PRICE,
          outcome: 'reserved',
          error: null,
          created_at: '2026-11-20T09:59:00.000Z',
          settled_at: null,
        },
        [],
      );
      calls = 0;
      await runBatchItem(idle.deps, id, 0);
      expect(calls).toBe(0);
      const batch = await json<{ failed_count: number; errors: { error: string }[] }>(await idle.call('GET', `/api/batch/${id}`));
      expect(batch.failed_count).toBe(1);
      expect(batch.errors[0]?.error).toMatch(/not sent again/);
      expect(await idle.deps.db.charges.latestForImage('admin', item?.image_id ?? '')).toMatchObject({ id: 'chg_dead', outcome: 'uncertain', cost_usd: PRICE });
    } finally {
      await idle.close();
    }
  });
});
