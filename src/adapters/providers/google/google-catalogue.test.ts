import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtimes/node/config.js';
import { buildNodeProviderSet } from '../../../runtimes/node/providers.js';
import { createGoogleProvider } from './google-provider.js';
import { googleSuccess, promptBlocked } from './google.fake.js';
import { createHarness, json, type Harness } from '../../../test-support/harness.js';
import { useLoopbackFake } from '../../../test-support/loopback-server.js';

/*
 * Google's models through imagegate's API, the adapter calling the loopback Gemini API (google.fake.ts): the catalogue
 * with prices and lifecycle, what the API refuses before calling Google, generation and an edit of two uploads with
 * the cost recorded, a safety block. The harness clock reads 2026-11-20.
 */

const api = useLoopbackFake((images) => googleSuccess(images));
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const withGoogle = async (): Promise<Harness> => {
  h = await createHarness({ providers: { google: createGoogleProvider({ apiKey: 'AIza-test', baseUrl: api.server.origin }) } });
  return h;
};
const generate = (harness: Harness, body: Record<string, unknown>) => harness.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', ...body });
const generations = () => api.server.requests.filter((sent) => sent.method === 'POST');

interface Listed {
  id: string;
  available: boolean;
  unavailable_reason?: string;
  cost_per_image: number;
  pricing_source: string;
  lifecycle: string;
  shutdown_at?: string;
  replacement?: string;
  sizes?: string[];
  inputs: { max_images: number };
}

describe('Google models in GET /api/models', () => {
  const listed = async (harness: Harness): Promise<Map<string, Listed>> => {
    const body = await json<{ models: Listed[] }>(await harness.call('GET', '/api/models?limit=100'));
    return new Map(body.models.filter((model) => model.id.startsWith('google/')).map((model) => [model.id, model]));
  };

  it('lists them with prices, sources and lifecycle, unavailable until GEMINI_API_KEY is set', async () => {
    const models = await listed((h = await createHarness()));
    expect(models.get('google/gemini-nano-banana-2.1')).toMatchObject({
      available: false,
      unavailable_reason: 'set GEMINI_API_KEY to enable provider google',
      cost_per_image: 0.0336,
      pricing_source: 'https://ai.google.dev/gemini-api/docs/pricing',
      lifecycle: 'active',
      inputs: { max_images: 14 },
    });
    expect(models.get('google/gemini-3-pro-image')).toMatchObject({ cost_per_image: 0.1344, lifecycle: 'active' });
    expect(models.get('google/gemini-3.1-flash-lite-image')).toMatchObject({ cost_per_image: 0.0336, lifecycle: 'active' });
    expect(models.get('google/gemini-3.1-flash-image')).toMatchObject({
      lifecycle: 'shut_down',
      shutdown_at: '2026-10-29',
      replacement: 'google/gemini-nano-banana-2.1',
    });
    expect(models.get('google/gemini-2.5-flash-image')).toMatchObject({ lifecycle: 'shut_down', shutdown_at: '2026-10-02' });
    for (const id of ['google/imagen-4.0-generate-001', 'google/imagen-4.0-ultra-generate-001', 'google/imagen-4.0-fast-generate-001']) {
      expect(models.get(id)).toMatchObject({ lifecycle: 'shut_down', shutdown_at: '2026-08-17', available: false });
    }
    expect(models.size).toBe(10);
  });

  it('makes the provider available with GEMINI_API_KEY alone, its base URL defaulting to the Gemini API', () => {
    const config = loadConfig({ GEMINI_API_KEY: 'AIza-test' });
    expect(config.providerEnv.GEMINI_BASE_URL).toBe('https://generativelanguage.googleapis.com');
    expect(buildNodeProviderSet(config).statusOf('google')).toEqual({ available: true, name: 'Google (Gemini API)' });
  });

  it('lists them available once the provider is configured', async () => {
    const models = await listed(await withGoogle());
    expect(models.get('google/gemini-nano-banana-2.1')).toMatchObject({ available: true });
    expect(models.get('google/imagen-4.0-generate-001')).toMatchObject({ available: false });
  });
});

describe('Google models through POST /api/generate', () => {
  it.each([
    [1376, 768, 0.0336],
    [4096, 4096, 0.1134],
  ])('makes %ix%i with Nano Banana 2.1 and records $%d', async (width, height, cost) => {
    const res = await generate(await withGoogle(), { model: 'google/gemini-nano-banana-2.1', width, height });
    expect(res.status).toBe(201);
    expect((await json(res)).cost).toBeCloseTo(cost, 12);
  });

  it('records the 2K price of Nano Banana Pro', async () => {
    const res = await generate(await withGoogle(), { model: 'google/gemini-3-pro-image', width: 2752, height: 1536 });
    expect((await json(res)).cost).toBeCloseTo(0.1344, 12);
  });

  it('refuses a size the model does not make (2K on Nano Banana 2.1) before calling Google', async () => {
    const res = await generate(await withGoogle(), { model: 'google/gemini-nano-banana-2.1', width: 2048, height: 2048 });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'width' } });
    expect(generations()).toEqual([]);
  });

  it('refuses a shut-down Imagen model, naming its shutdown and replacement, without calling Google', async () => {
    const res = await generate(await withGoogle(), { model: 'google/imagen-4.0-generate-001' });
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ shutdown_at: '2026-08-17', replacement: 'google/gemini-nano-banana-2.1' });
    expect(generations()).toEqual([]);
  });

  it('edits two uploaded images in one call, with lineage', async () => {
    const harness = await withGoogle();
    const upload = async (name: string, bytes: Buffer, type: string): Promise<string> => {
      const form = new FormData();
      form.set('file', new File([new Uint8Array(bytes)], name, { type }));
      return String((await json(await harness.call('POST', '/api/uploads', form))).id);
    };
    const ids = [await upload('room.png', api.images.png, 'image/png'), await upload('chair.jpg', api.images.jpeg, 'image/jpeg')];
    const res = await generate(harness, { model: 'google/gemini-nano-banana-2.1', image_ids: ids, width: 1024, height: 1024 });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ source_image_ids: ids, cost: 0.0336 });
    const [sent] = generations();
    const parts = (sent?.body as { contents: { parts: { inlineData?: { mimeType: string } }[] }[] }).contents[0]?.parts ?? [];
    expect(parts.map((part) => part.inlineData?.mimeType)).toEqual([undefined, 'image/png', 'image/jpeg']);
  });

  it('answers a safety block with 400 GENERATION_REFUSED, never sent again, and records no cost', async () => {
    api.server.respondWith(promptBlocked('SAFETY'));
    const harness = await withGoogle();
    const res = await generate(harness, { model: 'google/gemini-nano-banana-2.1' });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 'GENERATION_REFUSED', details: { message: expect.stringContaining('Google blocked the prompt (SAFETY)') } });
    expect(generations()).toHaveLength(1);
    expect(await json(await harness.call('GET', '/api/analytics/costs'))).toMatchObject({ total_cost: 0 });
  });
});
