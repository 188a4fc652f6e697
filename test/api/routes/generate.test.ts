import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, expectInvalid, json, type Harness, OBJECTS_PER_IMAGE } from '../../../src/test-support/harness.js';
import { inProcessOnly, nodeOnly } from '../../../src/test-support/in-process-only.js';
import { photoPng } from '../../support/sample-images.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const generate = (body: unknown) => h.call('POST', '/api/generate', body);

describe('POST /api/generate', () => {
  it('creates an image: 201, the full record, a PNG of the requested size stored under generated/<id>.png', async () => {
    const res = await generate({ prompt: '  a lighthouse at dusk  ', model: 'local/procedural', width: 320, height: 192, metadata: { campaign: 'spring' } });
    expect(res.status).toBe(201);
    const image = await json(res);
    expect(image).toMatchObject({
      prompt: 'a lighthouse at dusk',
      model: 'local/procedural',
      width: 320,
      height: 192,
      user_id: 'admin',
      cost: 0,
      is_deleted: false,
      metadata: { campaign: 'spring' },
      template_id: null,
    });
    expect(image.id).toMatch(/^img_[0-9a-z]{26}$/);
    expect(image.r2_key).toBe(`generated/${String(image.id)}.png`);
    expect(image.r2_url).toBe(h.blobs.publicUrl(String(image.r2_key)));
    expect(image.created_at).toBe('2026-11-20T10:00:00.000Z');

    const stored = await h.blobs.get(String(image.r2_key));
    expect(stored?.contentType).toBe('image/png');
    const meta = await sharp(stored?.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 320, 192]);
  });

  it('serves the stored PNG at the public path of r2_url', async () => {
    const image = await json(await generate({ prompt: 'a red barn', model: 'local/procedural' }));
    const res = await h.fetchPublic(String(image.r2_url));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/png');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(512);
  });

  it('serves the file as a download named as asked with ?download=, keeping its extension', async () => {
    // /files is the local storage's; an S3 bucket serves its own objects.
    await h.close();
    h = await createHarness({ storage: 'memory' });
    const image = await json(await generate({ prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64 }));
    const path = new URL(String(image.r2_url)).pathname;
    const named = await h.app.request(`${path}?download=${encodeURIComponent('a red barn – dusk')}`);
    expect(named.headers.get('Content-Disposition')).toBe(
      `attachment; filename="a red barn _ dusk.png"; filename*=UTF-8''${encodeURIComponent('a red barn – dusk.png')}`,
    );
    const plain = await h.app.request(`${path}?download=1`);
    expect(plain.headers.get('Content-Disposition')).toContain(`filename="${String(image.id)}.png"`);
    expect((await h.app.request(path)).headers.get('Content-Disposition')).toBeNull();
  });

  it('is not idempotent: the same request twice makes two images', async () => {
    const a = await json(await generate({ prompt: 'same prompt', model: 'local/procedural', seed: 7 }));
    const b = await json(await generate({ prompt: 'same prompt', model: 'local/procedural', seed: 7 }));
    expect(a.id).not.toBe(b.id);
    // Two images, each with its thumbnails once their jobs ran.
    await h.drainJobs();
    expect(await h.blobs.keys()).toHaveLength(2 * OBJECTS_PER_IMAGE);
  });

  it('records the parameters used, including a chosen seed when none was given', async () => {
    const image = await json(await generate({ prompt: 'foggy harbour', model: 'local/procedural', steps: 6, guidance: 3.5, negative_prompt: 'sun' }));
    expect(image.parameters).toEqual({ width: 512, height: 512, seed: 1, steps: 6, guidance: 3.5, negative_prompt: 'sun' });
  });

  it.each([
    ['too short', 'ab', 'at least 3'],
    ['only whitespace around two letters', '   ab   ', 'at least 3'],
    ['too long', 'x'.repeat(4001), 'at most 4000'],
  ])('refuses a prompt that is %s; key-based mode words `error` as the parameter problem', async (_case, prompt, message) => {
    const res = await generate({ prompt, model: 'local/procedural' });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.code).toBe('INVALID_PARAMETER');
    expect(body.details).toMatchObject({ field: 'prompt' });
    expect(body.error).toBe((body.details as { message: string }).message);
    expect(String(body.error)).toContain(message);
  });

  it('refuses an unknown model with `Invalid model` naming it', async () => {
    const res = await generate({ prompt: 'a cat', model: 'acme/imaginary' });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'Invalid model', code: 'INVALID_MODEL', details: { model: 'acme/imaginary' } });
  });

  it('refuses a model whose provider is not configured, naming the settings to set', async () => {
    const res = await generate({ prompt: 'a cat', model: '@cf/black-forest-labs/flux-1-schnell' });
    expect(res.status).toBe(400);
    const body = await json<{ error: string; details: { model: string; message: string } }>(res);
    expect(body.error).toBe('Invalid model');
    expect(body.details.model).toBe('@cf/black-forest-labs/flux-1-schnell');
    expect(body.details.message).toContain('CLOUDFLARE_ACCOUNT_ID');
    expect(body.details.message).toContain('CLOUDFLARE_API_TOKEN');
  });

  it('uses the default model (DEFAULT_MODEL, local/procedural) when the request names no model and no template', async () => {
    const res = await generate({ prompt: 'a cat on a windowsill', width: 64, height: 64 });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ model: 'local/procedural' });
  });

  it("names the model's own size limit when a width is too large for it", async () => {
    const res = await generate({ prompt: 'a wide valley', model: 'local/procedural', width: 4096 });
    expect(await expectInvalid(res, 'Invalid width')).toMatchObject({ details: { message: 'width must be at most 2048 for local/procedural (got 4096)' } });
  });

  it.each([
    [{ prompt: 123, model: 'local/procedural' }, 'Invalid prompt'],
    [{ prompt: 'a cat', model: 42 }, 'Invalid model'],
    [{ prompt: 'a cat', model: 'local/procedural', width: 'wide' }, 'Invalid width'],
    [{ prompt: 'a cat', model: 'local/procedural', width: 10_000 }, 'Invalid width'],
    [{ prompt: 'a cat', model: 'local/procedural', seed: -1 }, 'Invalid seed'],
    [{ prompt: 'a cat', model: 'local/procedural', metadata: 'x' }, 'Invalid metadata'],
    [{ prompt: 'a cat', model: 'local/procedural', user_id: 'mallory' }, 'Invalid user_id'],
  ])('answers a wrong type or unknown field with a 400, never a 500 (%j)', async (body, error) => {
    await expectInvalid(await generate(body), error);
  });

  inProcessOnly.it('refuses a parameter the chosen model does not accept, naming it', async () => {
    const fake: ImageProvider = {
      id: 'workers-ai',
      generate: async () => ({
        bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
          .png()
          .toBuffer(),
        contentType: 'image/png',
      }),
    };
    h = await createHarness({ providers: { 'workers-ai': fake } });
    const body = await expectInvalid(await generate({ prompt: 'a cat', model: '@cf/black-forest-labs/flux-1-schnell', width: 512 }), 'Invalid width');
    expect(body.details).toMatchObject({ message: expect.stringContaining('does not accept width') });
  });

  it('refuses a size outside the model range', async () => {
    await expectInvalid(await generate({ prompt: 'a cat', model: 'local/procedural', width: 32 }), 'Invalid width');
  });

  inProcessOnly.it('answers a failed generation with 500 `Image generation failed` and leaves no record, object or cost', async () => {
    const failing: ImageProvider = { id: 'local', generate: async () => Promise.reject(new Error('GPU on fire')) };
    h = await createHarness({ providers: { local: failing } });
    const res = await generate({ prompt: 'a cat', model: 'local/procedural' });
    expect(res.status).toBe(500);
    expect(await json(res)).toEqual({ error: 'Image generation failed', details: { message: 'GPU on fire' }, code: 'GENERATION_FAILED' });
    expect(await h.blobs.keys()).toEqual([]);
    expect((await json(await h.call('GET', '/api/images'))).images).toEqual([]);
    expect((await json(await h.call('GET', '/api/analytics/costs'))).total_images).toBe(0);
  });

  nodeOnly.it('stores a JPEG answer as PNG with its real pixel size', async () => {
    const jpeg: ImageProvider = {
      id: 'local',
      generate: async () => ({
        bytes: await sharp({ create: { width: 100, height: 60, channels: 3, background: 'blue' } })
          .jpeg()
          .toBuffer(),
        contentType: 'image/jpeg',
      }),
    };
    h = await createHarness({ providers: { local: jpeg } });
    const image = await json(await generate({ prompt: 'a cat', model: 'local/procedural' }));
    expect([image.width, image.height]).toEqual([100, 60]);
    const meta = await sharp((await h.blobs.get(String(image.r2_key)))?.bytes).metadata();
    expect(meta.format).toBe('png');
  });

  nodeOnly.it("stores a provider's PNG asked for as PNG byte for byte, sized from its header, without a trip to the codec", async () => {
    const delivered = await photoPng(320, 200);
    const png: ImageProvider = { id: 'local', generate: async () => ({ bytes: new Uint8Array(delivered), contentType: 'image/png' }) };
    h = await createHarness({ providers: { local: png } });
    const encode = vi.spyOn(h.deps.codec, 'encode');
    try {
      const image = await json(await generate({ prompt: 'a cat', model: 'local/procedural' }));
      expect([image.width, image.height]).toEqual([320, 200]);
      expect(Buffer.from((await h.blobs.get(String(image.r2_key)))?.bytes ?? []).equals(delivered)).toBe(true);
      expect(encode).not.toHaveBeenCalled();
    } finally {
      encode.mockRestore();
    }
  });
});

describe('POST /api/generate with a template', () => {
  it('takes model, prompt and parameters from the template', async () => {
    const res = await generate({ template_id: 'tmpl_sample_sunset_coast' });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({
      model: 'local/procedural',
      prompt: 'a calm ocean at sunset under warm orange clouds',
      width: 768,
      height: 512,
      template_id: 'tmpl_sample_sunset_coast',
    });
  });

  it('lets request fields win over the template', async () => {
    const image = await json(await generate({ template_id: 'tmpl_sample_sunset_coast', prompt: 'a quiet lake', width: 256 }));
    expect([image.prompt, image.width, image.height]).toEqual(['a quiet lake', 256, 512]);
  });

  it('answers an unknown template with 404', async () => {
    const res = await generate({ template_id: 'tmpl_nope' });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Template not found', details: { template_id: 'tmpl_nope' }, code: 'NOT_FOUND' });
  });
});
