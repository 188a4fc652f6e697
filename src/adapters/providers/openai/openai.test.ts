import { describe, expect, it } from 'vitest';
import { createOpenAiProvider } from './openai-provider.js';
import { openAiModels } from './openai-models.js';
import { computeCost } from '../../../domain/models/pricing.js';
import {
  ProviderAccountProblem,
  ProviderRefusal,
  ProviderUnavailable,
  type CallJournal,
  type InputImage,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { createHarness, json } from '../../../test-support/harness.js';
import { FAKE_INPUT_IMAGE_TOKENS, FAKE_TEXT_TOKENS, openAiSuccess } from './openai.fake.js';
import { sampleMask } from '../../../test-support/fake-images.js';
import { multipartOf, onlyRequest, rejectionOf, sendBytes, sendJson, useLoopbackFake, type ReceivedForm } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://api.openai.com. The request is asserted
 * as openai-node shapes it: src/resources/images.ts at 7b7d6ca (2026-08-21), `images.generate` posting
 * ImageGenerateParams (model, prompt, n, size "WIDTHxHEIGHT", quality, background, output_format) to
 * /images/generations, `images.edit` posting ImageEditParams to /images/edits as multipart through
 * src/internal/uploads.ts (`multipartFormRequestOptions` -> `createForm`: scalars as text fields, a File under its
 * own name and type, an array's elements as `<key>[]`), and src/resources/models.ts `models.retrieve`
 * (GET /models/{model}) for the credentials check.
 */

const KEY = 'sk-MUST-NOT-LEAK-0a1b2c';
/** The edit forms the fake received this test, parsed by the fake itself. */
const edits: ReceivedForm[] = [];
const api = useLoopbackFake((images) => {
  edits.length = 0;
  return openAiSuccess(images.png.toString('base64'), edits);
});

const provider = (baseUrl = api.server.origin) => createOpenAiProvider({ apiKey: KEY, baseUrl });
const request = (providerModel: string, width = 1024, height = 1024): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  width,
  height,
  seed: 7,
});
const only = () => onlyRequest(api.server);
const openAiError = (status: number, message: string, code: string | null, headers: Record<string, string> = {}, type = 'invalid_request_error') => {
  api.server.respondWith((_request, response) => sendJson(response, status, { error: { message, type, param: null, code } }, headers));
};

describe('OpenAI Images request', () => {
  it('POSTs JSON to /v1/images/generations with the API key as a bearer token', async () => {
    await provider().generate(request('gpt-image-2'));
    const sent = only();
    expect([sent.method, sent.path]).toEqual(['POST', '/v1/images/generations']);
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('asks gpt-image-2 for one PNG at any size in steps of 16, at medium quality, without response_format', async () => {
    await provider().generate(request('gpt-image-2', 1536, 864));
    expect(only().body).toEqual({ model: 'gpt-image-2', prompt: 'a lighthouse at dusk', n: 1, size: '1536x864', quality: 'medium', output_format: 'png' });
  });

  it('calls the pinned snapshot by its own name', async () => {
    await provider().generate(request('gpt-image-2-2026-04-21'));
    expect(only().body).toMatchObject({ model: 'gpt-image-2-2026-04-21', quality: 'medium' });
  });

  it('accepts a base URL that already ends in /v1, as the OpenAI SDKs spell it', async () => {
    await provider(`${api.server.origin}/v1/`).generate(request('gpt-image-2'));
    expect(only().path).toBe('/v1/images/generations');
  });
});

describe('OpenAI Images quality and background', () => {
  it('sends the quality asked instead of the default medium', async () => {
    await provider().generate({ ...request('gpt-image-2'), quality: 'high' });
    expect(only().body).toMatchObject({ quality: 'high' });
  });

  it('sends moderation on a generation when one is asked (ImageGenerateParams.moderation), and none otherwise', async () => {
    await provider().generate({ ...request('gpt-image-2'), moderation: 'low' });
    expect(only().body).toMatchObject({ moderation: 'low' });
  });

  it('sends the background when one is asked, and none otherwise', async () => {
    await provider().generate({ ...request('gpt-image-2'), background: 'transparent' });
    expect(only().body).toEqual({
      model: 'gpt-image-2',
      prompt: 'a lighthouse at dusk',
      n: 1,
      size: '1024x1024',
      quality: 'medium',
      background: 'transparent',
      output_format: 'png',
    });
  });

  it('reports the tokens billed at the quality asked, so the recorded cost follows it', async () => {
    const model = openAiModels.find((m) => m.id === 'openai/gpt-image-2');
    const low = await provider().generate({ ...request('gpt-image-2'), quality: 'low' });
    const high = await provider().generate({ ...request('gpt-image-2'), quality: 'high' });
    expect([low.usage?.outputImageTokens, high.usage?.outputImageTokens]).toEqual([196, 7024]);
    if (model === undefined) throw new Error('gpt-image-2 is not in the catalogue');
    expect(computeCost(model.pricing, { width: 1024, height: 1024, quality: 'high' }, high.usage)).toBeCloseTo((FAKE_TEXT_TOKENS * 5 + 7024 * 30) / 1e6, 12);
  });
});

describe('OpenAI Images edits', () => {
  const inputs = async (count: number): Promise<InputImage[]> =>
    Array.from({ length: count }, (_, i) => ({ bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: `image-${i}.png` }));
  const edit = async (extra: Partial<ProviderRequest> = {}, count = 1) =>
    provider().generate({ ...request('gpt-image-2'), images: await inputs(count), ...extra });
  const onlyEdit = (): ReceivedForm => {
    expect(`${only().method} ${only().path}`).toBe('POST /v1/images/edits');
    const [form] = edits;
    if (form === undefined) throw new Error('the fake parsed no edit form');
    return form;
  };

  it('POSTs multipart form data to /v1/images/edits with the key as a bearer token', async () => {
    await edit();
    expect(only().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(only().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it("sends one image as the file `image`, with the edit's fields as images.edit sends them", async () => {
    await edit();
    const form = onlyEdit();
    expect(form.fields).toEqual({ model: 'gpt-image-2', prompt: 'a lighthouse at dusk', n: '1', size: '1024x1024', quality: 'medium', output_format: 'png' });
    expect(Object.keys(form.files)).toEqual(['image']);
    const [file] = form.files.image ?? [];
    expect([file?.filename, file?.type, file?.bytes.equals(api.images.png)]).toEqual(['image-0.png', 'image/png', true]);
  });

  it('sends several images as repeated `image[]` files, in order, as createForm sends an array', async () => {
    await edit({}, 3);
    const form = onlyEdit();
    expect(form.files.image).toBeUndefined();
    expect(form.files['image[]']?.map((file) => file.filename)).toEqual(['image-0.png', 'image-1.png', 'image-2.png']);
  });

  it('forwards the mask byte for byte: its transparent pixels already mark the area to edit', async () => {
    const mask = await sampleMask();
    await edit({ mask: { bytes: mask, contentType: 'image/png', width: 80, height: 48, filename: 'mask.png' } });
    const [sent] = onlyEdit().files.mask ?? [];
    expect([sent?.filename, sent?.type, sent?.bytes.equals(mask)]).toEqual(['mask.png', 'image/png', true]);
  });

  it('leaves moderation out of an edit: ImageEditParams has no such field', async () => {
    await edit({ moderation: 'low' });
    expect(onlyEdit().fields).not.toHaveProperty('moderation');
  });

  it('sends quality, background and input_fidelity when asked', async () => {
    await edit({ quality: 'low', background: 'opaque', inputFidelity: 'high' });
    expect(onlyEdit().fields).toMatchObject({ quality: 'low', background: 'opaque', input_fidelity: 'high' });
  });

  it('reports the input image tokens OpenAI bills, and records their cost', async () => {
    const image = await edit({}, 2);
    expect(image.usage).toEqual({
      inputTextTokens: FAKE_TEXT_TOKENS,
      inputImageTokens: 2 * FAKE_INPUT_IMAGE_TOKENS,
      outputImageTokens: 1756,
      outputTextTokens: 0,
    });
    const model = openAiModels.find((m) => m.id === 'openai/gpt-image-2');
    if (model === undefined) throw new Error('gpt-image-2 is not in the catalogue');
    expect(computeCost(model.pricing, { width: 1024, height: 1024 }, image.usage)).toBeCloseTo(
      (FAKE_TEXT_TOKENS * 5 + 2 * FAKE_INPUT_IMAGE_TOKENS * 8 + 1756 * 30) / 1e6,
      12,
    );
  });

  it("passes OpenAI's refusal of a bad edit on as a refusal", async () => {
    await expect(edit({ mask: { bytes: api.images.jpeg, contentType: 'image/jpeg', width: 80, height: 48, filename: 'mask.jpg' } })).rejects.toBeInstanceOf(
      ProviderRefusal,
    );
    expect((await multipartOf(only())).files.mask?.[0]?.type).toBe('image/jpeg');
  });
});

describe('OpenAI Images answer', () => {
  it('decodes data[0].b64_json, keeps a PNG byte for byte, and reports the tokens billed', async () => {
    const image = await provider().generate(request('gpt-image-2'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(image.usage).toEqual({ inputTextTokens: FAKE_TEXT_TOKENS, inputImageTokens: 0, outputImageTokens: 1756, outputTextTokens: 0 });
  });

  it('recognises a JPEG answer from its bytes', async () => {
    api.server.respondWith(openAiSuccess(api.images.jpeg.toString('base64')));
    expect((await provider().generate(request('gpt-image-2'))).contentType).toBe('image/jpeg');
  });

  it('downloads data[0].url when the answer is a URL, sending the key only to the API origin', async () => {
    api.server.respondWith((sent, response) => {
      if (sent.path.startsWith('/files/')) return sendBytes(response, 200, 'image/png', api.images.png);
      // `localhost` is a different origin from the API's `127.0.0.1`, as a CDN would be.
      const port = new URL(api.server.origin).port;
      return sendJson(response, 200, { created: 1, data: [{ url: `http://localhost:${port}/files/out.png` }] });
    });
    const image = await provider().generate(request('gpt-image-2'));
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    const download = api.server.requests[1];
    expect(download?.path).toBe('/files/out.png');
    expect(download?.headers.authorization).toBeUndefined();
  });

  it('keeps a URL answer in the journal, so a retry downloads it again instead of generating another image', async () => {
    let downloads = 0;
    api.server.respondWith((sent, response) => {
      if (sent.path.startsWith('/files/')) {
        downloads += 1;
        return downloads === 1 ? sendBytes(response, 503, 'text/plain', Buffer.from('busy')) : sendBytes(response, 200, 'image/png', api.images.png);
      }
      return sendJson(response, 200, { created: 1, data: [{ url: `${api.server.origin}/files/out.png` }] });
    });
    const journal: CallJournal = {};
    expect(await rejectionOf(provider().generate(request('gpt-image-2'), { journal }))).toBeInstanceOf(ProviderUnavailable);
    await provider().generate(request('gpt-image-2'), { journal });
    expect(api.server.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(1);
  });

  it('fails clearly when the answer holds no image', async () => {
    api.server.respondWith((_request, response) => sendJson(response, 200, { created: 1, data: [] }));
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('no image in data[0]');
  });
});

describe('OpenAI Images failures', () => {
  it("treats moderation_blocked as a refusal, quoting OpenAI's message and code", async () => {
    openAiError(400, 'Your request was rejected by the safety system.', 'moderation_blocked');
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('OpenAI answered 400: Your request was rejected by the safety system. (moderation_blocked)');
  });

  it('reports a wrong API key as an account problem without echoing the key', async () => {
    openAiError(401, 'Incorrect API key provided: sk-MUST***2c.', 'invalid_api_key');
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(KEY);
  });

  it('treats insufficient_quota as an account problem although OpenAI answers 429, so it is never retried', async () => {
    openAiError(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', {}, 'insufficient_quota');
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('insufficient_quota');
  });

  it('marks a rate limit 429 as retryable with its Retry-After', async () => {
    openAiError(429, 'Rate limit reached for images per minute.', 'rate_limit_exceeded', { 'Retry-After': '7' });
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000 });
  });

  it('marks a 5xx HTML page as retryable and says what came back', async () => {
    api.server.respondWith((_request, response) => sendBytes(response, 502, 'text/html', Buffer.from('<html>bad gateway</html>')));
    const error = await rejectionOf(provider().generate(request('gpt-image-2')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain('OpenAI answered 502: unexpected text/html');
  });

  it('stops waiting when the call is aborted', async () => {
    api.server.respondWith((_request, response, fake) => fake.stall(response));
    const controller = new AbortController();
    const pending = provider().generate(request('gpt-image-2'), { signal: controller.signal });
    await expect.poll(() => api.server.requests.length).toBe(1);
    controller.abort(new Error('caller gave up'));
    expect(String(await rejectionOf(pending))).toContain('caller gave up');
  });
});

describe('OpenAI credentials check', () => {
  it('retrieves the gpt-image-2 model with the key, generating nothing', async () => {
    const check = await provider().check?.();
    expect(check).toEqual({ ok: true, endpoint: 'GET /v1/models/gpt-image-2', detail: 'answered 200' });
    expect(`${only().method} ${only().path}`).toBe('GET /v1/models/gpt-image-2');
    expect(only().headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reports a refused key without echoing it', async () => {
    openAiError(401, 'Incorrect API key provided.', 'invalid_api_key');
    const check = await provider().check?.();
    expect(check).toMatchObject({
      ok: false,
      detail: expect.stringContaining("OpenAI answered 401: Incorrect API key provided. (invalid_api_key) (check the provider's API key)"),
    });
    expect(JSON.stringify(check)).not.toContain(KEY);
  });
});

describe('OpenAI models through the API', () => {
  const withOpenAi = async <T>(run: (h: Awaited<ReturnType<typeof createHarness>>) => Promise<T>): Promise<T> => {
    const h = await createHarness({ providers: { openai: provider() } });
    try {
      return await run(h);
    } finally {
      await h.close();
    }
  };
  const generate = (h: Awaited<ReturnType<typeof createHarness>>, body: Record<string, unknown>) =>
    h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', ...body });

  it.each([
    [1000, 1008, 'multiples of 16'],
    [800, 608, 'at least 655,360 pixels'],
    [3840, 2176, 'at most 8,294,400 pixels'],
    [3072, 960, 'at most 3 times the shorter'],
  ])('refuses %ix%i for gpt-image-2 (%s) before calling OpenAI', async (width, height, message) => {
    await withOpenAi(async (h) => {
      const res = await generate(h, { model: 'openai/gpt-image-2', width, height });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { message: expect.stringContaining(message) } });
    });
    expect(api.server.requests).toEqual([]);
  });

  it('makes 3840x2160, the largest size, and 2880x960 at 3:1', async () => {
    await withOpenAi(async (h) => {
      expect((await generate(h, { model: 'openai/gpt-image-2', width: 3840, height: 2160 })).status).toBe(201);
      expect((await generate(h, { model: 'openai/gpt-image-2', width: 2880, height: 960 })).status).toBe(201);
    });
  });

  it('refuses a seed, which OpenAI does not take', async () => {
    await withOpenAi(async (h) => {
      const res = await generate(h, { model: 'openai/gpt-image-2', seed: 3 });
      expect(res.status).toBe(400);
      expect((await json(res)).details).toMatchObject({ field: 'seed' });
    });
  });

  it('records the cost of the tokens OpenAI reports', async () => {
    await withOpenAi(async (h) => {
      const image = await json(await generate(h, { model: 'openai/gpt-image-2' }));
      expect(image.cost).toBeCloseTo((FAKE_TEXT_TOKENS * 5 + 1756 * 30) / 1e6, 12);
    });
  });
});
