import { describe, expect, it } from 'vitest';
import { createFalProvider } from './fal-provider.js';
import { falModels } from './fal-models.js';
import { withResilience } from '../resilience/resilient-provider.js';
import { computeCost } from '../../../domain/models/pricing.js';
import {
  ProviderAccountProblem,
  ProviderRefusal,
  ProviderUnavailable,
  type CallJournal,
  type InputImage,
  type ProviderProgress,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { falFlow, queued } from './fal.fake.js';
import { rejectionOf, sendJson, useLoopbackFake, type Responder } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://queue.fal.run. Requests are asserted as
 * fal's own documents shape them: the queue protocol (fal.ai/docs/model-apis/model-endpoints/queue: POST
 * /{model}, status_url, response_url, cancel_url with PUT), the model inputs of fal.ai/models/fal-ai/flux/schnell/api
 * and fal.ai/docs/model-api-reference/image-generation-api/flux-2-pro, the `Key` authorization of fal's clients, and
 * the platform API's GET /v1/models/pricing (fal-ai-community/skills fal-platform SKILL.md) for the key check.
 */

const KEY = 'fal-key-MUST-NOT-LEAK:77aa';
const MODEL = 'fal-ai/flux/schnell';
const api = useLoopbackFake((images) => falFlow(images));

const provider = () => createFalProvider({ apiKey: KEY, baseUrl: api.server.origin, pollIntervalMs: 5 }, parametersFrom(falModels));
const request = (extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel: MODEL,
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 768,
  seed: 42,
  steps: 4,
  ...extra,
});
const paths = () => api.server.requests.map((r) => `${r.method} ${r.path}`);

/** The documented flow, except where `override` answers first (it returns true when it did). */
function flowWith(override: (...args: Parameters<Responder>) => boolean): void {
  const flow = falFlow(api.images);
  api.server.respondWith((sent, response, fake) => (override(sent, response, fake) ? undefined : flow(sent, response, fake)));
}

describe('fal queue request', () => {
  it('submits JSON to {base}/{model} with the key in the Key scheme', async () => {
    await provider().generate(request());
    const [submit] = api.server.requests;
    expect(`${submit?.method} ${submit?.path}`).toBe('POST /fal-ai/flux/schnell');
    expect(submit?.headers.authorization).toBe(`Key ${KEY}`);
    expect(submit?.headers['content-type']).toBe('application/json');
  });

  it('sends FLUX.2 [pro] no steps or guidance, which it does not take, and queues it under its own app', async () => {
    const image = await provider().generate(request({ providerModel: 'fal-ai/flux-2-pro', width: 1920, height: 1080, steps: 8, guidance: 3 }));
    expect(api.server.requests[0]?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
      image_size: { width: 1920, height: 1080 },
      seed: 42,
    });
    expect(paths()).toContain('GET /fal-ai/flux-2-pro/requests/req-1/status');
    expect(image.seed).toBe(42);
  });

  it('sends the prompt, a custom image_size, seed and steps, asking for one PNG with the safety checker on', async () => {
    await provider().generate(request({ width: 1536, height: 640, steps: 8, guidance: 3, negativePrompt: 'blurry' }));
    expect(api.server.requests[0]?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
      image_size: { width: 1536, height: 640 },
      seed: 42,
      num_inference_steps: 8,
    });
  });
});

/*
 * Edits, asserted against fal-js's generated endpoint types (fal-ai/fal-js at 381105e1, libs/client/src/types/
 * endpoints.ts: Flux2EditInput, Flux2ProEditInput = Flux2MaxEditInput, FluxKontextInput) with the images inline as
 * base64 data URIs, which fal's models accept for file inputs (docs.fal.ai/documentation/model-apis/fal-cdn).
 */
describe('fal image inputs', () => {
  const input = (format: 'png' | 'jpeg' | 'webp', index: number): InputImage => ({
    bytes: new Uint8Array(api.images[format]),
    contentType: `image/${format}`,
    width: 80,
    height: 48,
    filename: `image-${index}.${format === 'jpeg' ? 'jpg' : format}`,
  });
  const dataUri = (format: 'png' | 'jpeg' | 'webp') => `data:image/${format};base64,${api.images[format].toString('base64')}`;

  it('sends FLUX.2 [dev] edit every image in order as data URIs in image_urls, with its size, steps and guidance', async () => {
    const image = await provider().generate(
      request({
        providerModel: 'fal-ai/flux-2/edit',
        width: 1024,
        height: 1024,
        steps: 28,
        guidance: 2.5,
        images: [input('png', 0), input('jpeg', 1), input('webp', 2)],
      }),
    );
    const [submit] = api.server.requests;
    expect(`${submit?.method} ${submit?.path}`).toBe('POST /fal-ai/flux-2/edit');
    expect(submit?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
      image_urls: [dataUri('png'), dataUri('jpeg'), dataUri('webp')],
      image_size: { width: 1024, height: 1024 },
      seed: 42,
      num_inference_steps: 28,
      guidance_scale: 2.5,
    });
    expect(paths()).toContain('GET /fal-ai/flux-2/requests/req-1');
    expect(image.contentType).toBe('image/png');
  });

  it('sends FLUX.2 [pro] edit its images, size and seed, and no steps or guidance, which it does not take', async () => {
    await provider().generate(
      request({ providerModel: 'fal-ai/flux-2-pro/edit', width: 1536, height: 1024, steps: 8, guidance: 3, images: [input('jpeg', 0)] }),
    );
    expect(api.server.requests[0]?.path).toBe('/fal-ai/flux-2-pro/edit');
    expect(api.server.requests[0]?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
      image_urls: [dataUri('jpeg')],
      image_size: { width: 1536, height: 1024 },
      seed: 42,
    });
  });

  it('sends Kontext its one image as image_url, with no size (the result keeps the input proportions) and no safety checker field', async () => {
    await provider().generate(request({ providerModel: 'fal-ai/flux-pro/kontext', width: 1024, height: 1024, guidance: 3.5, images: [input('webp', 0)] }));
    expect(api.server.requests[0]?.path).toBe('/fal-ai/flux-pro/kontext');
    expect(api.server.requests[0]?.body).toEqual({
      prompt: 'a lighthouse at dusk',
      num_images: 1,
      output_format: 'png',
      image_url: dataUri('webp'),
      seed: 42,
      guidance_scale: 3.5,
    });
    expect(paths()).toContain('GET /fal-ai/flux-pro/requests/req-1/status');
  });

  it('carries the exact bytes of each image, which decode back to the original', async () => {
    await provider().generate(request({ providerModel: 'fal-ai/flux-2/edit', width: 1024, height: 1024, images: [input('png', 0)] }));
    const [url] = (api.server.requests[0]?.body as { image_urls: string[] }).image_urls;
    expect(Buffer.from(String(url).split(',')[1] ?? '', 'base64').equals(api.images.png)).toBe(true);
  });

  it('refuses an edit without an image, and images for a text-only model, before anything reaches fal', async () => {
    expect(String(await rejectionOf(provider().generate(request({ providerModel: 'fal-ai/flux-pro/kontext' }))))).toContain(
      'fal-ai/flux-pro/kontext edits an input image',
    );
    const textOnly = await rejectionOf(provider().generate(request({ images: [input('png', 0)] })));
    expect(textOnly).toBeInstanceOf(ProviderRefusal);
    expect(String(textOnly)).toContain('fal-ai/flux/schnell takes no input images');
    expect(api.server.requests).toHaveLength(0);
  });

  it('lists the edit models with the images they take and bills FLUX.2 input megapixels', () => {
    const byId = new Map(falModels.map((model) => [model.provider_model, model]));
    expect(['fal-ai/flux-2/edit', 'fal-ai/flux-2-pro/edit', 'fal-ai/flux-pro/kontext'].map((id) => byId.get(id)?.inputs)).toEqual([
      { max_images: 4, mask: false, strength: false },
      { max_images: 8, mask: false, strength: false },
      { max_images: 1, mask: false, strength: false },
    ]);
    const pricing = byId.get('fal-ai/flux-2/edit')?.pricing;
    if (pricing === undefined) throw new Error('fal-ai/flux-2/edit is missing from the catalogue');
    expect(
      computeCost(pricing, {
        width: 1024,
        height: 1024,
        inputs: [
          { width: 1024, height: 1024 },
          { width: 1920, height: 1080 },
        ],
      }),
    ).toBeCloseTo(0.012 * (1 + 1 + 2), 12);
  });
});

describe('fal queue lifecycle', () => {
  it('polls status_url until COMPLETED, reads response_url, then downloads the image', async () => {
    const image = await provider().generate(request());
    expect(paths()).toEqual([
      'POST /fal-ai/flux/schnell',
      'GET /fal-ai/flux/requests/req-1/status',
      'GET /fal-ai/flux/requests/req-1/status',
      'GET /fal-ai/flux/requests/req-1',
      'GET /files/req-1.png',
    ]);
    expect(api.server.requests[1]?.headers.authorization).toBe(`Key ${KEY}`);
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it('reports its place in the queue, then the steps its logs show, asking for the logs only when progress is followed', async () => {
    api.server.respondWith(falFlow(api.images, { run: { queueAhead: 2, steps: 4 } }));
    const seen: ProviderProgress[] = [];
    await provider().generate(request(), { onProgress: (progress) => seen.push(progress) });
    expect(seen).toEqual([
      { message: 'in queue at position 2' },
      { message: 'in queue at position 1' },
      { message: 'in queue at position 0' },
      { fraction: 0.25, message: 'step 1/4' },
      { fraction: 0.5, message: 'step 2/4' },
      { fraction: 0.75, message: 'step 3/4' },
      { fraction: 1, message: 'step 4/4' },
    ]);
    const checks = paths().filter((path) => path.includes('/status'));
    expect(checks).toHaveLength(7);
    expect(checks.every((path) => path === 'GET /fal-ai/flux/requests/req-1/status?logs=1')).toBe(true);
  });

  it('uses the documented queue URLs instead of ones fal names on another host, so the key stays home', async () => {
    api.server.respondWith(falFlow(api.images, { queueOrigin: 'https://elsewhere.example' }));
    await provider().generate(request());
    expect(paths()).toEqual([
      'POST /fal-ai/flux/schnell',
      'GET /fal-ai/flux/requests/req-1/status',
      'GET /fal-ai/flux/requests/req-1/status',
      'GET /fal-ai/flux/requests/req-1',
      'GET /files/req-1.png',
    ]);
  });

  it("refuses an image fal's safety checker flagged (fal blacks it out instead of failing)", async () => {
    flowWith((sent, response) => {
      if (sent.method !== 'GET' || sent.path !== '/fal-ai/flux/requests/req-1') return false;
      sendJson(response, 200, {
        images: [{ url: `${api.server.origin}/files/req-1.png`, width: 1024, height: 768, content_type: 'image/png' }],
        has_nsfw_concepts: [true],
        seed: 1,
      });
      return true;
    });
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('safety checker');
  });

  it('reports a failed run, whose error shows when the result is read', async () => {
    flowWith((sent, response) => {
      if (sent.method !== 'GET' || sent.path !== '/fal-ai/flux/requests/req-1') return false;
      sendJson(response, 400, { detail: 'Image generation failed: invalid image size' });
      return true;
    });
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('fal answered 400: Image generation failed: invalid image size');
  });

  it('resumes the queued request in the journal after a failed status check instead of submitting another', async () => {
    let failed = false;
    flowWith((sent, response) => {
      if (failed || !sent.path.endsWith('/status')) return false;
      failed = true;
      sendJson(response, 503, { detail: 'upstream unavailable' });
      return true;
    });
    const journal: CallJournal = {};
    expect(await rejectionOf(provider().generate(request(), { journal }))).toBeInstanceOf(ProviderUnavailable);
    await provider().generate(request(), { journal });
    expect(paths().filter((p) => p === 'POST /fal-ai/flux/schnell')).toHaveLength(1);
  });

  it('cancels the queued request when the caller gives up', async () => {
    flowWith((sent, response) => {
      if (!sent.path.endsWith('/status')) return false;
      sendJson(response, 200, queued(sent.headers, 'req-1', 'IN_QUEUE'));
      return true;
    });
    const resilient = withResilience(provider(), {
      timeoutMs: 60_000,
      retries: 0,
      baseDelayMs: 1,
      maxDelayMs: 1,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 1_000,
    });
    const controller = new AbortController();
    const pending = resilient.generate(request(), { signal: controller.signal });
    await expect.poll(() => paths()).toContain('GET /fal-ai/flux/requests/req-1/status');
    controller.abort(new Error('timed out'));
    expect(String(await rejectionOf(pending))).toContain('timed out');
    await expect.poll(() => paths()).toContain('PUT /fal-ai/flux/requests/req-1/cancel');
  });
});

describe('fal errors', () => {
  it('turns a 422 validation error into a refusal naming each field', async () => {
    api.server.respondWith((_sent, response) =>
      sendJson(response, 422, {
        detail: [{ loc: ['body', 'num_inference_steps'], msg: 'ensure this value is less than or equal to 12', type: 'value_error.number.not_le' }],
      }),
    );
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('fal answered 422: body.num_inference_steps: ensure this value is less than or equal to 12');
  });

  it('reports a bad key as an account problem without echoing it', async () => {
    api.server.respondWith((_sent, response) => sendJson(response, 401, { detail: 'Cannot access application. Authentication is required.' }));
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(KEY);
  });

  it("checks the key by reading a model's price on the platform API, generating nothing", async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /v1/models/pricing', detail: 'answered 200' });
    expect(api.server.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/v1/models/pricing?endpoint_id=fal-ai%2Fflux%2Fschnell', `Key ${KEY}`],
    ]);
  });

  it('marks a 5xx from a status check as retryable', async () => {
    flowWith((sent, response) => {
      if (!sent.path.endsWith('/status')) return false;
      sendJson(response, 503, { detail: 'upstream unavailable' });
      return true;
    });
    expect(await rejectionOf(provider().generate(request()))).toBeInstanceOf(ProviderUnavailable);
  });
});
