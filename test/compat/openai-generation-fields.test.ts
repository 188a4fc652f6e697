import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, json } from '../../src/test-support/harness.js';
import { listenEachWithStandIn } from './listen-each.js';
import { refusal } from './refusal.js';

/**
 * Every request field OpenAI defines for `POST /v1/images/generations` (openai/openai-node@7b7d6ca
 * src/resources/images.ts, ImageGenerateParamsBase) is honoured or refused with a 400 naming it.
 */
const PAID = 'replicate/black-forest-labs/flux-schnell';

const live = listenEachWithStandIn({ workers: false });

const client = () => new OpenAI({ apiKey: TEST_KEY, baseURL: `${live.server.origin}/v1`, maxRetries: 0 });
const gallery = async () => (await json<{ images: { r2_key: string; r2_url: string; parameters: Record<string, unknown> }[] }>(await live.h.call('GET', '/api/images'))).images;
const charges = async () => (await json<{ charges: unknown[] }>(await live.h.call('GET', '/api/analytics/charges?limit=100'))).charges;
const base = { model: 'local/procedural', prompt: 'a lighthouse on a cliff', size: '128x128' } as const;

describe('fields no model here can honour are refused before anything is made or charged', () => {
  it('refuses stream: true on a paid model, naming stream: no provider call, no charge, no image', async () => {
    const error = await refusal(client().images.generate({ model: PAID, prompt: 'a lighthouse on a cliff', size: '1024x1024', stream: true }));
    expect(error.param).toBe('stream');
    expect(live.standIn.calls()).toBe(0);
    expect(await charges()).toHaveLength(0);
    expect(await gallery()).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>]>([
    ['partial_images', { partial_images: 2 }],
    ['style', { style: 'vivid' }],
    ['moderation', { moderation: 'low' }],
    ['quality', { quality: 'hd' }],
  ])('refuses %s, naming it', async (field, extra) => {
    const error = await refusal(client().images.generate({ ...base, model: PAID, size: '1024x1024', ...extra }));
    expect(error.param).toBe(field);
    expect(live.standIn.calls()).toBe(0);
    expect(await gallery()).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>]>([
    ['background', { background: 'transparent' }],
    ['quality', { quality: 'low' }],
    ['output_compression', { output_compression: 80 }],
  ])('leaves to the model what it cannot do: %s on the offline model is a 400 naming it', async (field, extra) => {
    const error = await refusal(client().images.generate({ ...base, ...extra }));
    expect(error.param).toBe(field);
    expect(await gallery()).toHaveLength(0);
  });
});

describe('fields the model can honour are honoured', () => {
  it('stores webp with a .webp key when output_format is webp, and says so in the answer', async () => {
    const result = await client().images.generate({ ...base, output_format: 'webp' });
    expect(result).toMatchObject({ output_format: 'webp', size: '128x128' });
    const [image] = await gallery();
    expect(image?.r2_key).toMatch(/^generated\/img_\w+\.webp$/);
    expect(image?.r2_url).toBe(result.data?.[0]?.url);
    const bytes = Buffer.from((await live.h.blobs.get(image?.r2_key ?? ''))?.bytes ?? new Uint8Array());
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('answers b64_json in the asked format, with output_compression for jpeg', async () => {
    const result = await client().images.generate({ ...base, output_format: 'jpeg', output_compression: 60, response_format: 'b64_json' });
    expect(result.output_format).toBe('jpeg');
    expect([...Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect((await gallery())[0]).toMatchObject({ r2_key: expect.stringMatching(/\.jpg$/), parameters: { output_format: 'jpeg', output_compression: 60 } });
  });

  it('takes moderation auto, quality auto or standard, background opaque, stream false and partial_images 0', async () => {
    const result = await client().images.generate({ ...base, moderation: 'auto', quality: 'standard', background: 'opaque', stream: false, partial_images: 0 });
    expect(result).toMatchObject({ output_format: 'png', background: 'opaque' });
    expect(result.quality).toBeUndefined();
    expect(await gallery()).toHaveLength(1);
  });

  it('ignores a field OpenAI does not define, as this route always has', async () => {
    const res = await live.h.call('POST', '/v1/images/generations', { ...base, not_an_openai_field: true });
    expect(res.status).toBe(200);
  });
});
