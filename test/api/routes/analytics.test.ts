import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import sharp from 'sharp';

let h: Harness;
const tinyPng: ImageProvider = {
  id: 'workers-ai',
  generate: async () => ({
    bytes: await sharp({ create: { width: 16, height: 16, channels: 3, background: 'white' } })
      .png()
      .toBuffer(),
    contentType: 'image/png',
  }),
};

beforeEach(async () => {
  h = await createHarness({ providers: { 'workers-ai': tinyPng } });
});
afterEach(async () => {
  await h.close();
});

async function generateAt(iso: string, model: string): Promise<string> {
  h.clock.set(iso);
  const res = await h.call('POST', '/api/generate', { prompt: 'a cost test', model });
  expect(res.status).toBe(201);
  return String((await json(res)).id);
}

const FLUX = '@cf/black-forest-labs/flux-1-schnell';

describe('analytics', () => {
  beforeEach(async () => {
    await generateAt('2026-11-01T09:00:00.000Z', FLUX);
    await generateAt('2026-11-01T18:00:00.000Z', 'local/procedural');
    const deleted = await generateAt('2026-11-02T08:00:00.000Z', FLUX);
    await h.call('DELETE', `/api/images/${deleted}`);
  });

  it('reports costs with the spec fields, deleted images included, and breakdowns', async () => {
    const body = await json(await h.call('GET', '/api/analytics/costs'));
    expect(body).toMatchObject({
      total_cost: 0.0012672,
      total_images: 3,
      average_cost: 0.0004224,
      currency: 'USD',
      by_model: [
        { model: FLUX, images: 2, cost: 0.0012672, average_cost: 0.0006336 },
        { model: 'local/procedural', images: 1, cost: 0, average_cost: 0 },
      ],
      by_day: [
        { date: '2026-11-01', images: 2, cost: 0.0006336 },
        { date: '2026-11-02', images: 1, cost: 0.0006336 },
      ],
    });
  });

  it('reports usage: totals, active and deleted counts, by model and by day', async () => {
    const body = await json(await h.call('GET', '/api/analytics/usage'));
    expect(body).toMatchObject({ user_id: 'admin', total_images: 3, active_images: 2, deleted_images: 1, total_cost: 0.0012672 });
    expect(body.by_day).toEqual([
      { date: '2026-11-01', images: 2, deleted_images: 0, cost: 0.0006336 },
      { date: '2026-11-02', images: 1, deleted_images: 1, cost: 0.0006336 },
    ]);
    expect(body.by_day_and_model).toEqual([
      { date: '2026-11-01', model: FLUX, images: 1, deleted_images: 0, cost: 0.0006336 },
      { date: '2026-11-01', model: 'local/procedural', images: 1, deleted_images: 0, cost: 0 },
      { date: '2026-11-02', model: FLUX, images: 1, deleted_images: 1, cost: 0.0006336 },
    ]);
  });

  it('narrows to a range; a date-only `to` includes that whole day', async () => {
    const body = await json(await h.call('GET', '/api/analytics/costs?from=2026-11-01&to=2026-11-01'));
    expect(body).toMatchObject({ total_images: 2, from: '2026-11-01T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z' });
    const later = await json(await h.call('GET', '/api/analytics/usage?from=2026-11-01T12:00:00Z'));
    expect(later.total_images).toBe(2);
  });

  it('answers an empty range with zeros, not a division by zero', async () => {
    const body = await json(await h.call('GET', '/api/analytics/costs?from=2030-01-01'));
    expect(body).toMatchObject({ total_cost: 0, total_images: 0, average_cost: 0, by_model: [], by_day: [] });
  });

  it.each(['from=yesterday', 'to=2026-13-45', 'from=2026-11-05&to=2026-11-01'])('refuses %s with a 400', async (query) => {
    const res = await h.call('GET', `/api/analytics/costs?${query}`);
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe('INVALID_PARAMETER');
  });
});
