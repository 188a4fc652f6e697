import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

interface Model {
  id: string;
  cost_per_image: number;
  available: boolean;
  unavailable_reason?: string;
  parameters: string[];
  provider: string;
}

const REQUIRED = [
  'local/procedural',
  '@cf/black-forest-labs/flux-1-schnell',
  '@cf/stabilityai/stable-diffusion-xl-base-1.0',
  '@cf/bytedance/stable-diffusion-xl-lightning',
  '@cf/lykon/dreamshaper-8-lcm',
  '@cf/leonardo/phoenix-1.0',
  '@cf/leonardo/lucid-origin',
];

describe('models', () => {
  it('lists the catalogue with costs, availability and accepted parameters', async () => {
    const body = await json<{ models: Model[]; pagination: { total: number } }>(await h.call('GET', '/api/models?limit=100'));
    const ids = body.models.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(REQUIRED));
    expect(body.pagination.total).toBe(body.models.length);

    const procedural = body.models.find((model) => model.id === 'local/procedural');
    expect(procedural).toMatchObject({ available: true, cost_per_image: 0, provider: 'local' });
    const flux = body.models.find((model) => model.id === '@cf/black-forest-labs/flux-1-schnell');
    expect(flux).toMatchObject({ available: false, provider: 'workers-ai', cost_per_image: 0.0006336 });
    expect(flux?.unavailable_reason).toContain('CLOUDFLARE_API_TOKEN');
  });

  it('is honest that the offline model is not AI', async () => {
    const model = await json<{ description: string }>(await h.call('GET', '/api/models/local/procedural'));
    expect(model.description.toLowerCase()).toContain('not an ai model');
  });

  it.each(['/api/models/@cf/black-forest-labs/flux-1-schnell', `/api/models/${encodeURIComponent('@cf/black-forest-labs/flux-1-schnell')}`])(
    'gets one model by id with raw or encoded slashes (%s)',
    async (path) => {
      const res = await h.call('GET', path);
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({ id: '@cf/black-forest-labs/flux-1-schnell', name: expect.any(String), cost_per_image: 0.0006336 });
    },
  );

  it('answers an unknown model with 404', async () => {
    const res = await h.call('GET', '/api/models/acme/nothing');
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Model not found', details: { model: 'acme/nothing' } });
  });
});
