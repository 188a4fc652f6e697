import OpenAI from 'openai';
import type { ImageGenCompletedEvent, ImageGenStreamEvent } from 'openai/resources/images';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { listenEachWithStandIn } from './listen-each.js';
import { refusal } from './refusal.js';

/**
 * Every request field OpenAI defines for `POST /v1/images/generations` (openai/openai-node@7b7d6ca
 * src/resources/images.ts, ImageGenerateParamsBase) is honoured or refused with a 400 naming it.
 */
const PAID = 'replicate/black-forest-labs/flux-schnell';

const live = listenEachWithStandIn({ workers: false });

const client = () => new OpenAI({ apiKey: TEST_KEY, baseURL: `${live.server.origin}/v1`, maxRetries: 0 });
const gallery = async () =>
  (await json<{ images: { r2_key: string; r2_url: string; parameters: Record<string, unknown> }[] }>(await live.h.call('GET', '/api/images'))).images;
const charges = async () => (await json<{ charges: unknown[] }>(await live.h.call('GET', '/api/analytics/charges?limit=100'))).charges;
const base = { model: 'local/procedural', prompt: 'a lighthouse on a cliff', size: '128x128' } as const;

describe('fields honoured as OpenAI defines them, or refused before anything is made or charged', () => {
  it('streams a generation as OpenAI does: one image_generation.completed event with the image and usage, charged once', async () => {
    const stream = await client().images.generate({ model: PAID, prompt: 'a lighthouse on a cliff', size: '1024x1024', stream: true, partial_images: 2 });
    // Typed by openai-node's own stream events: what its helpers hand an app.
    const events: ImageGenStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['image_generation.completed']);
    const completed = events.find((event): event is ImageGenCompletedEvent => event.type === 'image_generation.completed');
    expect(completed).toMatchObject({ size: '1024x1024', output_format: 'png', usage: { total_tokens: 0 } });
    expect(
      Buffer.from(completed?.b64_json ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(live.standIn.calls()).toBe(1);
    expect(await charges()).toHaveLength(1);
    expect(await gallery()).toHaveLength(1);
  });

  it.each<[string, Record<string, unknown>]>([
    ['partial_images', { partial_images: 2 }],
    ['partial_images', { stream: false, partial_images: 1 }],
  ])('refuses %s without a stream, naming it', async (field, extra) => {
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
    const result = await client().images.generate({ ...base, output_format: 'webp', response_format: 'url' });
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
    // The offline model has one fixed quality: auto says the model decided, as OpenAI's values cannot.
    expect(result).toMatchObject({ output_format: 'png', background: 'opaque', quality: 'auto', size: '128x128' });
    expect(await gallery()).toHaveLength(1);
  });

  it('answers usage on every answer: zeros for a model that counts no tokens', async () => {
    const result = await client().images.generate({ ...base, n: 2 });
    expect(result.usage).toEqual({
      input_tokens: 0,
      input_tokens_details: { image_tokens: 0, text_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { image_tokens: 0, text_tokens: 0 },
      total_tokens: 0,
    });
    expect(result).toMatchObject({ background: 'opaque', quality: 'auto', output_format: 'png', size: '128x128' });
  });

  it('ignores a field OpenAI does not define, as this route always has', async () => {
    const res = await live.h.call('POST', '/v1/images/generations', { ...base, not_an_openai_field: true });
    expect(res.status).toBe(200);
  });
});

describe("DALL-E-era fields are taken, so DALL-E clients (LangChain's DallEAPIWrapper) keep working", () => {
  const warning = async (body: Record<string, unknown>) => {
    const res = await live.h.call('POST', '/v1/images/generations', { ...base, ...body });
    expect(res.status).toBe(200);
    return { warning: res.headers.get('Warning'), body: await json<{ quality: string }>(res) };
  };

  it('leaves style aside with a 299 Warning that says to put the style in the prompt, and makes the image', async () => {
    const { warning: header } = await warning({ style: 'vivid' });
    expect(header).toMatch(/^299 - "style vivid is dall-e-3's .*say the style in the prompt"$/);
    expect(await gallery()).toHaveLength(1);
  });

  it('takes quality standard as the default without a warning, and hd as the default with one where the model has no high', async () => {
    expect((await warning({ quality: 'standard' })).warning).toBeNull();
    const hd = await warning({ quality: 'hd', style: 'natural' });
    expect(hd.warning).toMatch(/^299 - "quality hd is dall-e-3's; local\/procedural has no high quality.*", 299 - "style natural/);
    expect(hd.body.quality).toBe('auto');
    expect(await gallery()).toHaveLength(2);
  });

  it('takes moderation low on a model whose provider has no such setting, with nothing recorded of it', async () => {
    const result = await client().images.generate({ ...base, moderation: 'low' });
    expect(result.data).toHaveLength(1);
    expect((await gallery())[0]?.parameters).not.toHaveProperty('moderation');
  });
});
