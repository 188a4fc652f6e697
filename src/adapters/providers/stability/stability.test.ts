import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createCpuPool } from '../../cpu/cpu-pool.js';
import { inpaintMaskFromAlpha } from './inpaint-mask.js';
import { createStabilityProvider } from './stability-provider.js';
import { stabilityModels } from './stability-models.js';
import { computeCost } from '../../../domain/models/pricing.js';
import { ProviderAccountProblem, ProviderRefusal, ProviderUnavailable, type InputImage, type ProviderRequest } from '../../../ports/image-provider.js';
import { createHarness, json } from '../../../test-support/harness.js';
import { parametersFrom } from '../../../providers.js';
import { STABILITY_RANDOM_SEED, stabilitySuccess } from './stability.fake.js';
import { sampleMask } from '../../../test-support/fake-images.js';
import { formOf, onlyRequest, rejectionOf, sendBytes, sendJson, useLoopbackFake, type ReceivedForm } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://api.stability.ai. Requests are asserted as
 * Stability's API reference (platform.stability.ai/docs/api-reference#tag/Generate, stored copies in client
 * libraries) shapes them: multipart fields, `Accept: image/*`, the `finish-reason` and `seed` response headers; seed
 * 0 asks for a random seed. The credentials check is the stability-ai SDK's v1.user.balance (GET /v1/user/balance).
 */

const KEY = 'sk-stab-MUST-NOT-LEAK-5d2e';
/** The forms the fake received this test, parsed by the fake itself. */
const received: ReceivedForm[] = [];
const api = useLoopbackFake((images) => {
  received.length = 0;
  return stabilitySuccess(images, undefined, received);
});
// The mask is converted on a worker thread, as the service does it.
const cpu = createCpuPool({ threads: 1 });
afterAll(() => cpu.close());

const provider = () => createStabilityProvider({ apiKey: KEY, baseUrl: api.server.origin, masks: cpu }, parametersFrom(stabilityModels));
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  width: 1024,
  height: 1024,
  seed: 42,
  guidance: 4.5,
  ...extra,
});
const only = () => onlyRequest(api.server);
const fields = async () => Object.fromEntries([...(await formOf(only())).entries()].map(([name, value]) => [name, String(value)]));
const stabilityError = (status: number, name: string, errors: string[]) =>
  api.server.respondWith((_r, response) => sendJson(response, status, { id: 'a1b2', name, errors }));

describe('Stability request', () => {
  it.each([
    ['core', '/v2beta/stable-image/generate/core'],
    ['ultra', '/v2beta/stable-image/generate/ultra'],
    ['sd3.5-large', '/v2beta/stable-image/generate/sd3'],
    ['sd3.5-medium', '/v2beta/stable-image/generate/sd3'],
  ])('POSTs %s to %s', async (model, path) => {
    await provider().generate(request(model));
    expect(`${only().method} ${only().path}`).toBe(`POST ${path}`);
  });

  it('sends multipart form data with the key as a bearer token, asking for image bytes', async () => {
    await provider().generate(request('core'));
    const { headers } = only();
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers.accept).toBe('image/*');
    expect(headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('sends core the prompt, negative prompt, aspect ratio, seed and PNG output', async () => {
    await provider().generate(request('core', { width: 1920, height: 1080 }));
    expect(await fields()).toEqual({ prompt: 'a lighthouse at dusk', negative_prompt: 'blurry', aspect_ratio: '16:9', seed: '42', output_format: 'png' });
  });

  it('names the SD 3.5 model and sends guidance as cfg_scale', async () => {
    await provider().generate(request('sd3.5-large', { width: 832, height: 1216 }));
    expect(await fields()).toEqual({
      prompt: 'a lighthouse at dusk',
      model: 'sd3.5-large',
      negative_prompt: 'blurry',
      aspect_ratio: '2:3',
      seed: '42',
      cfg_scale: '4.5',
      output_format: 'png',
    });
  });

  it('leaves out what a model does not take (turbo: negative prompt)', async () => {
    await provider().generate(request('sd3.5-large-turbo'));
    expect(await fields()).not.toHaveProperty('negative_prompt');
  });

  it("keeps the seed within Stability's range, and reports the seed Stability used", async () => {
    const image = await provider().generate(request('core', { seed: 4_294_967_295 }));
    expect((await fields()).seed).toBe('4294967294');
    expect(image.seed).toBe(4_294_967_294);
  });

  it('reports the seed Stability picked when asked for seed 0, which means random', async () => {
    const image = await provider().generate(request('core', { seed: 0 }));
    expect((await fields()).seed).toBe('0');
    expect(image.seed).toBe(STABILITY_RANDOM_SEED);
  });

  it('records the seed Stability actually used on the image, not the 0 that was asked for', async () => {
    const h = await createHarness({ providers: { stability: provider() } });
    try {
      const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'stability/core', seed: 0 });
      expect(res.status).toBe(201);
      expect((await json(res)).parameters).toMatchObject({ seed: STABILITY_RANDOM_SEED });
    } finally {
      await h.close();
    }
  });
});

/*
 * Images in, as Stability's API reference shapes them (OpenAPI https://api.stability.ai/v2alpha/openapi, read as
 * generated into tryAGI/StabilityAI at 67b31be: StabilityAI.IGenerateClient.CreateStableImageGenerate{Ultra,Sd3}.g.cs
 * and StabilityAI.IEditClient.CreateStableImageEditInpaint.g.cs): ultra takes `image` + `strength`; sd3 takes
 * `mode=image-to-image` + `image` + `strength`, its `aspect_ratio` "only valid for text-to-image"; inpaint takes
 * `image`, `prompt` and a `mask` whose white pixels are inpainted and black ones kept.
 */
describe('Stability images in', () => {
  const photo = (): InputImage => ({ bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: 'image-0.png' });
  const onlyForm = (): ReceivedForm => {
    expect(api.server.requests).toHaveLength(1);
    const [form] = received;
    if (form === undefined) throw new Error('the fake parsed no form');
    return form;
  };
  const sentImage = (form: ReceivedForm) => form.files.image?.map((file) => [file.filename, file.type, file.bytes.equals(api.images.png)]);

  it('sends ultra the image with its strength, beside its text-to-image fields', async () => {
    await provider().generate(request('ultra', { width: 1920, height: 1080, images: [photo()], strength: 0.35 }));
    const form = onlyForm();
    expect(only().path).toBe('/v2beta/stable-image/generate/ultra');
    expect(form.fields).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: '42',
      output_format: 'png',
      aspect_ratio: '16:9',
      strength: '0.35',
    });
    expect(sentImage(form)).toEqual([['image-0.png', 'image/png', true]]);
  });

  it('asks the sd3 service for image-to-image: mode, image and strength, and no aspect ratio', async () => {
    await provider().generate(request('sd3.5-medium', { images: [photo()], strength: 0.8 }));
    const form = onlyForm();
    expect(only().path).toBe('/v2beta/stable-image/generate/sd3');
    expect(form.fields).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: '42',
      output_format: 'png',
      model: 'sd3.5-medium',
      cfg_scale: '4.5',
      mode: 'image-to-image',
      strength: '0.8',
    });
    expect(sentImage(form)).toEqual([['image-0.png', 'image/png', true]]);
  });

  it('sends the midpoint strength when the caller gives none, since Stability requires one', async () => {
    await provider().generate(request('ultra', { images: [photo()] }));
    expect(onlyForm().fields.strength).toBe('0.5');
  });

  it('refuses an input image for Core, whose API takes none, before calling Stability', async () => {
    expect(await rejectionOf(provider().generate(request('core', { images: [photo()] })))).toBeInstanceOf(ProviderRefusal);
    expect(api.server.requests).toEqual([]);
  });

  it('inpaints: the image, the prompt and the mask turned white where it was transparent, black where opaque', async () => {
    const mask = await sampleMask();
    await provider().generate(
      request('inpaint', { images: [photo()], mask: { bytes: mask, contentType: 'image/png', width: 80, height: 48, filename: 'mask.png' } }),
    );
    const form = onlyForm();
    expect(only().path).toBe('/v2beta/stable-image/edit/inpaint');
    expect(form.fields).toEqual({ prompt: 'a lighthouse at dusk', negative_prompt: 'blurry', seed: '42', output_format: 'png' });
    expect(sentImage(form)).toEqual([['image-0.png', 'image/png', true]]);
    const [sent] = form.files.mask ?? [];
    // A greyscale PNG (IHDR colour type 0), 80x48 as the mask was.
    expect([sent?.filename, sent?.type, sent?.bytes[25]]).toEqual(['mask.png', 'image/png', 0]);
    const { data, info } = await sharp(sent?.bytes).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([80, 48, 1]);
    expect([data[0], data[39], data[40], data[79], data[47 * 80 + 10], data[47 * 80 + 70]]).toEqual([255, 255, 0, 0, 255, 0]);
  });

  it("inpaints the image's own transparent pixels when no mask is given, as Stability documents", async () => {
    await provider().generate(request('inpaint', { images: [photo()] }));
    expect(onlyForm().files.mask).toBeUndefined();
  });

  it('refuses inpainting without an image, and a mask it cannot read, before calling Stability', async () => {
    expect(await rejectionOf(provider().generate(request('inpaint')))).toBeInstanceOf(ProviderRefusal);
    const unreadable = { bytes: Buffer.from('not a png'), contentType: 'image/png', width: 80, height: 48, filename: 'mask.png' };
    const error = await rejectionOf(provider().generate(request('inpaint', { images: [photo()], mask: unreadable })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('the mask could not be read');
    expect(api.server.requests).toEqual([]);
  });

  it('turns transparency into inpainting strength: 255 - alpha, whatever the channels', () => {
    expect([...inpaintMaskFromAlpha(Uint8Array.from([9, 9, 9, 0, 9, 9, 9, 255, 9, 9, 9, 128]), 4)]).toEqual([255, 0, 127]);
    expect([...inpaintMaskFromAlpha(Uint8Array.from([7, 0, 7, 255]), 2)]).toEqual([255, 0]);
    expect(() => inpaintMaskFromAlpha(Uint8Array.from([1, 2, 3]), 3)).toThrow('alpha');
  });

  it('lists inpainting at 5 credits, and image-to-image on ultra and SD 3.5 but not Core', () => {
    const byId = new Map(stabilityModels.map((model) => [model.id, model]));
    const inpaint = byId.get('stability/inpaint');
    expect(inpaint?.inputs).toEqual({ max_images: 1, mask: true, strength: false });
    expect(inpaint === undefined ? undefined : computeCost(inpaint.pricing, { width: 1024, height: 1024 })).toBe(0.05);
    for (const id of ['stability/ultra', 'stability/sd3.5-large', 'stability/sd3.5-large-turbo', 'stability/sd3.5-medium']) {
      expect(byId.get(id)?.inputs, id).toEqual({ max_images: 1, mask: false, strength: true });
    }
    expect(byId.get('stability/core')?.inputs).toBeUndefined();
  });
});

describe('Stability answer', () => {
  it('returns the image bytes and their content type', async () => {
    const image = await provider().generate(request('core'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it('refuses an image whose finish-reason is CONTENT_FILTERED, so it is never retried', async () => {
    api.server.respondWith((_r, response) => sendBytes(response, 200, 'image/png', api.images.png, { 'finish-reason': 'CONTENT_FILTERED', seed: '1' }));
    const error = await rejectionOf(provider().generate(request('core')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('CONTENT_FILTERED');
  });

  it('refuses a prompt flagged by content moderation (403 content_moderation)', async () => {
    stabilityError(403, 'content_moderation', ['Your request was flagged by our content moderation system, as a result your request was denied.']);
    const error = await rejectionOf(provider().generate(request('ultra')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('content_moderation: Your request was flagged');
  });

  it("treats a 400 as a refusal quoting Stability's errors", async () => {
    stabilityError(400, 'bad_request', ['aspect_ratio: must be one of 16:9, 1:1']);
    const error = await rejectionOf(provider().generate(request('core')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Stability AI answered 400: bad_request: aspect_ratio: must be one of 16:9, 1:1');
  });

  it('reports a bad key as an account problem without echoing it', async () => {
    stabilityError(401, 'unauthorized', ['missing authorization header']);
    const error = await rejectionOf(provider().generate(request('core')));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(KEY);
  });

  it('marks 429 and 500 as retryable', async () => {
    stabilityError(429, 'rate_limit_exceeded', ['You have exceeded the rate limit of 150 requests within a 10 second period']);
    expect(await rejectionOf(provider().generate(request('core')))).toBeInstanceOf(ProviderUnavailable);
    stabilityError(500, 'internal_error', ['An unexpected server error has occurred']);
    expect(await rejectionOf(provider().generate(request('core')))).toBeInstanceOf(ProviderUnavailable);
  });

  it('fails clearly when a 200 carries JSON instead of an image', async () => {
    api.server.respondWith((_r, response) => sendJson(response, 200, { image: 'abc', finish_reason: 'SUCCESS' }));
    expect(String(await rejectionOf(provider().generate(request('core'))))).toContain('instead of an image');
  });
});

describe('Stability credentials check', () => {
  it('reads the credit balance with the key, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /v1/user/balance', detail: 'answered 200' });
    expect([only().method, only().path, only().headers.authorization]).toEqual(['GET', '/v1/user/balance', `Bearer ${KEY}`]);
  });

  it('reports an account out of credit (402) as an account problem', async () => {
    stabilityError(402, 'payment_required', ['You lack sufficient credits to make this request.']);
    expect(await rejectionOf(provider().generate(request('core')))).toBeInstanceOf(ProviderAccountProblem);
  });
});
