import { describe, expect, it } from 'vitest';
import { createStabilityProvider } from '../../src/adapters/providers/stability/stability-provider.js';
import { stabilityModels } from '../../src/domain/models/catalog/stability.js';
import { ProviderAccountProblem, ProviderRefusal, ProviderUnavailable, type ProviderRequest } from '../../src/ports/image-provider.js';
import { createHarness, json } from '../../src/test-support/harness.js';
import { parametersFrom } from '../../src/providers.js';
import { STABILITY_RANDOM_SEED, stabilitySuccess } from './fakes/stability-fake.js';
import { formOf, onlyRequest, rejectionOf, sendBytes, sendJson, useLoopbackFake } from './loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://api.stability.ai. Requests are asserted as
 * Stability's API reference (platform.stability.ai/docs/api-reference#tag/Generate, stored copies in client
 * libraries) shapes them: multipart fields, `Accept: image/*`, the `finish-reason` and `seed` response headers; seed
 * 0 asks for a random seed. The credentials check is the stability-ai SDK's v1.user.balance (GET /v1/user/balance).
 */

const KEY = 'sk-stab-MUST-NOT-LEAK-5d2e';
const api = useLoopbackFake((images) => stabilitySuccess(images));

const provider = () => createStabilityProvider({ apiKey: KEY, baseUrl: api.server.origin }, parametersFrom(stabilityModels));
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
const stabilityError = (status: number, name: string, errors: string[]) => api.server.respondWith((_r, response) => sendJson(response, status, { id: 'a1b2', name, errors }));

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
