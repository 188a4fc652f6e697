import { describe, expect, it } from 'vitest';
import { withResilience } from '../resilience/resilient-provider.js';
import { createGoogleProvider } from './google-provider.js';
import { candidateStopped, googleError, googleSuccess, promptBlocked, wordsOnly } from './google.fake.js';
import {
  ProviderAccountProblem,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type InputImage,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { onlyRequest, rejectionOf, sendJson, useLoopbackFake, type RecordedRequest } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://generativelanguage.googleapis.com, speaking
 * the Gemini API as googleapis/js-genai and Google's image-generation guide describe it (see google.fake.ts): requests
 * as js-genai shapes them, the image read from the final non-thought `inlineData` part, safety blocks as refusals,
 * Google's error envelope classified. Imagen 4 is shut down on the Gemini API, so there is nothing of it to call here:
 * google-catalogue.test.ts checks the API refuses it without calling Google.
 */

const KEY = 'AIza-MUST-NOT-LEAK-7f3c';
const received: RecordedRequest[] = [];
const api = useLoopbackFake((images) => {
  received.length = 0;
  return googleSuccess(images, 'png', received);
});

const provider = (baseUrl = api.server.origin) => createGoogleProvider({ apiKey: KEY, baseUrl });
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 1024,
  seed: 42,
  ...extra,
});
const only = () => onlyRequest(api.server);
const bodyOf = (sent: RecordedRequest) => sent.body as { contents: { role: string; parts: Record<string, unknown>[] }[]; generationConfig: unknown };

describe('Google generateContent request', () => {
  it('POSTs JSON to /v1beta/models/{model}:generateContent with the key in x-goog-api-key, asking for an image alone', async () => {
    await provider().generate(request('gemini-nano-banana-2.1'));
    expect(`${only().method} ${only().path}`).toBe('POST /v1beta/models/gemini-nano-banana-2.1:generateContent');
    expect(only().headers['x-goog-api-key']).toBe(KEY);
    expect(only().headers['content-type']).toBe('application/json');
    expect(only().body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse at dusk' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '1:1', imageSize: '1K' } },
    });
  });

  it.each([
    ['gemini-nano-banana-2.1', 5504, 3072, { aspectRatio: '16:9', imageSize: '4K' }],
    ['gemini-nano-banana-2.1', 384, 3072, { aspectRatio: '1:8', imageSize: '1K' }],
    ['gemini-3-pro-image', 1696, 2528, { aspectRatio: '2:3', imageSize: '2K' }],
    ['gemini-3.1-flash-lite-image', 1376, 768, { aspectRatio: '16:9' }],
  ])('asks %s for %ix%i as %o', async (model, width, height, imageConfig) => {
    await provider().generate(request(model, { width, height }));
    expect(bodyOf(only()).generationConfig).toEqual({ responseModalities: ['IMAGE'], imageConfig });
  });

  it('accepts a base URL that already ends in /v1beta', async () => {
    await provider(`${api.server.origin}/v1beta/`).generate(request('gemini-3-pro-image'));
    expect(only().path).toBe('/v1beta/models/gemini-3-pro-image:generateContent');
  });
});

describe('Google edits', () => {
  const inputs = (): InputImage[] => [
    { bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: 'image-0.png' },
    { bytes: api.images.webp, contentType: 'image/webp', width: 80, height: 48, filename: 'image-1.webp' },
  ];

  it('sends two input images as inline parts after the prompt, in order, with their types, and reads the edit', async () => {
    const image = await provider().generate(request('gemini-nano-banana-2.1', { images: inputs() }));
    const [content] = bodyOf(only()).contents;
    expect(content?.parts).toEqual([
      { text: 'a lighthouse at dusk' },
      { inlineData: { mimeType: 'image/png', data: api.images.png.toString('base64') } },
      { inlineData: { mimeType: 'image/webp', data: api.images.webp.toString('base64') } },
    ]);
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it("passes Google's refusal of more images than the model takes on as a refusal", async () => {
    const many = Array.from({ length: 15 }, () => inputs()[0]).filter((image) => image !== undefined);
    const error = await rejectionOf(provider().generate(request('gemini-nano-banana-2.1', { images: many })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Google answered 400: Too many images in the request: at most 14. (INVALID_ARGUMENT)');
  });
});

describe('Google answer', () => {
  it('returns the final image, not the thought image a Gemini 3 model draws first, kept byte for byte', async () => {
    const image = await provider().generate(request('gemini-3-pro-image'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it('reads a JPEG answer as JPEG', async () => {
    api.server.respondWith(googleSuccess(api.images, 'jpeg', received));
    expect((await provider().generate(request('gemini-2.5-flash-image'))).contentType).toBe('image/jpeg');
  });

  it.each([
    ['a blocked prompt', promptBlocked('PROHIBITED_CONTENT'), 'Google blocked the prompt (PROHIBITED_CONTENT) (Google bills this answer'],
    ['an image stopped by the filters', candidateStopped('IMAGE_SAFETY', 'Unable to show the generated image.'), 'finishReason IMAGE_SAFETY: Unable to show'],
    ['an answer in words', wordsOnly('I cannot draw that person.'), 'Google answered without an image (finishReason STOP): I cannot draw that person.'],
    ['no image made', candidateStopped('NO_IMAGE'), 'Google answered without an image (finishReason NO_IMAGE)'],
  ])('refuses %s, naming what Google said and billed', async (_case, responder, message) => {
    api.server.respondWith(responder);
    const error = await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain(message);
  });

  it('fails plainly, not as a refusal, on an answer with no candidate and no block', async () => {
    api.server.respondWith((_request, response) => sendJson(response, 200, { modelVersion: 'x' }));
    const error = await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('no candidate');
  });
});

const retryInfo = (delay: string) => ({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay });

describe('Google failures', () => {
  it('marks 429 RESOURCE_EXHAUSTED retryable after its Retry-After', async () => {
    api.server.respondWith(googleError(429, 'Resource has been exhausted (e.g. check quota).', [], { 'Retry-After': '7' }));
    const error = await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000 });
    expect(String(error)).toContain('(RESOURCE_EXHAUSTED)');
  });

  it("takes RetryInfo's retryDelay when there is no Retry-After header", async () => {
    api.server.respondWith(googleError(429, 'You exceeded your current quota.', [retryInfo('12.5s')]));
    expect(await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')))).toMatchObject({ status: 429, retryAfterMs: 12_500 });
  });

  it.each([
    [403, 'Method does not allow unregistered callers.', [], 'PERMISSION_DENIED'],
    [
      400,
      'API key not valid. Please pass a valid API key.',
      [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }],
      'API_KEY_INVALID',
    ],
  ])('reports %i (%s) as the problem of the operator, without echoing the key', async (code, message, details, named) => {
    api.server.respondWith(googleError(code, message, details));
    const error = await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain(named);
    expect(String(error)).not.toContain(KEY);
  });

  it('refuses a 400 INVALID_ARGUMENT as a fault of the request', async () => {
    api.server.respondWith(googleError(400, 'Unsupported aspect ratio: 7:3'));
    expect(await rejectionOf(provider().generate(request('gemini-nano-banana-2.1')))).toBeInstanceOf(ProviderRefusal);
  });

  it('sends again after a 503 before acceptance, which Google neither made nor billed, and then succeeds', async () => {
    let calls = 0;
    api.server.respondWith((sent, response, fake) => {
      calls += 1;
      if (calls === 1) return googleError(503, 'The model is overloaded. Please try again later.')(sent, response, fake);
      return googleSuccess(api.images, 'png', received)(sent, response, fake);
    });
    const resilient = withResilience(provider(), {
      timeoutMs: 5_000,
      retries: 2,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 1_000,
    });
    const image = await resilient.generate(request('gemini-nano-banana-2.1'));
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(api.server.requests).toHaveLength(2);
  });

  it('reports a request whose answer never came as an unknown outcome, sent once', async () => {
    api.server.respondWith((_request, response, fake) => fake.stall(response));
    const resilient = withResilience(provider(), {
      timeoutMs: 200,
      retries: 2,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 1_000,
    });
    expect(await rejectionOf(resilient.generate(request('gemini-nano-banana-2.1')))).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(api.server.requests).toHaveLength(1);
  });
});

describe('Google credentials check', () => {
  it('gets the Nano Banana 2.1 model with the key, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /v1beta/models/gemini-nano-banana-2.1', detail: 'answered 200' });
    expect(`${only().method} ${only().path}`).toBe('GET /v1beta/models/gemini-nano-banana-2.1');
    expect(only().headers['x-goog-api-key']).toBe(KEY);
  });

  it('reports a refused key without echoing it', async () => {
    api.server.respondWith(googleError(403, 'The caller does not have permission'));
    const check = await provider().check?.();
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('Google answered 403: The caller does not have permission (PERMISSION_DENIED)') });
    expect(JSON.stringify(check)).not.toContain(KEY);
  });
});
