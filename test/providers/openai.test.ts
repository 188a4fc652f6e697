import { describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../src/adapters/providers/openai/openai-provider.js';
import { ProviderRefusal, ProviderUnavailable, type ProviderRequest } from '../../src/ports/image-provider.js';
import { createHarness, json } from '../../src/test-support/harness.js';
import { openAiSuccess } from './fakes/openai-fake.js';
import { onlyRequest, rejectionOf, sendBytes, sendJson, useLoopbackFake } from './loopback-server.js';

/* The real adapter over real HTTP against a loopback stand-in for https://api.openai.com. */

const KEY = 'sk-MUST-NOT-LEAK-0a1b2c';
const api = useLoopbackFake((images) => openAiSuccess(images.png.toString('base64')));

const provider = (baseUrl = api.server.origin) => createOpenAiProvider({ apiKey: KEY, baseUrl });
const request = (providerModel: string, width = 1024, height = 1024): ProviderRequest => ({ providerModel, prompt: 'a lighthouse at dusk', width, height, seed: 7 });
const only = () => onlyRequest(api.server);
const openAiError = (status: number, message: string, code: string | null, headers: Record<string, string> = {}) => {
  api.server.respondWith((_request, response) => sendJson(response, status, { error: { message, type: 'invalid_request_error', param: null, code } }, headers));
};

describe('OpenAI Images request', () => {
  it('POSTs JSON to /v1/images/generations with the API key as a bearer token', async () => {
    await provider().generate(request('gpt-image-1'));
    const sent = only();
    expect([sent.method, sent.path]).toEqual(['POST', '/v1/images/generations']);
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('asks gpt-image-1 for one PNG at the size from width x height, at medium quality, without response_format', async () => {
    await provider().generate(request('gpt-image-1', 1536, 1024));
    expect(only().body).toEqual({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk', n: 1, size: '1536x1024', quality: 'medium', output_format: 'png' });
  });

  it('asks dall-e-3 for base64 at standard quality', async () => {
    await provider().generate(request('dall-e-3', 1024, 1792));
    expect(only().body).toEqual({ model: 'dall-e-3', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1792', quality: 'standard', response_format: 'b64_json' });
  });

  it('accepts a base URL that already ends in /v1, as the OpenAI SDKs spell it', async () => {
    await provider(`${api.server.origin}/v1/`).generate(request('gpt-image-1'));
    expect(only().path).toBe('/v1/images/generations');
  });
});

describe('OpenAI Images answer', () => {
  it('decodes data[0].b64_json and keeps a PNG byte for byte', async () => {
    const image = await provider().generate(request('gpt-image-1'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it('recognises a JPEG answer from its bytes', async () => {
    api.server.respondWith(openAiSuccess(api.images.jpeg.toString('base64')));
    expect((await provider().generate(request('gpt-image-1'))).contentType).toBe('image/jpeg');
  });

  it('downloads data[0].url when the answer is a URL, sending the key only to the API origin', async () => {
    api.server.respondWith((sent, response) => {
      if (sent.path.startsWith('/files/')) return sendBytes(response, 200, 'image/png', api.images.png);
      // `localhost` is a different origin from the API's `127.0.0.1`, as a CDN would be.
      const port = new URL(api.server.origin).port;
      return sendJson(response, 200, { created: 1, data: [{ url: `http://localhost:${port}/files/out.png`, revised_prompt: 'a lighthouse' }] });
    });
    const image = await provider().generate(request('dall-e-3'));
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    const download = api.server.requests[1];
    expect(download?.path).toBe('/files/out.png');
    expect(download?.headers.authorization).toBeUndefined();
  });

  it('fails clearly when the answer holds no image', async () => {
    api.server.respondWith((_request, response) => sendJson(response, 200, { created: 1, data: [] }));
    const error = await rejectionOf(provider().generate(request('gpt-image-1')));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('no image in data[0]');
  });
});

describe('OpenAI Images failures', () => {
  it("treats a content-policy 400 as a refusal, quoting OpenAI's message and code", async () => {
    openAiError(400, 'Your request was rejected as a result of our safety system.', 'content_policy_violation');
    const error = await rejectionOf(provider().generate(request('dall-e-3')));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('OpenAI answered 400: Your request was rejected as a result of our safety system. (content_policy_violation)');
  });

  it('treats gpt-image-1 moderation_blocked as a refusal', async () => {
    openAiError(400, 'Request was rejected by the safety system.', 'moderation_blocked');
    expect(await rejectionOf(provider().generate(request('gpt-image-1')))).toBeInstanceOf(ProviderRefusal);
  });

  it('reports a wrong API key as a service failure without echoing the key', async () => {
    openAiError(401, 'Incorrect API key provided: sk-MUST***2c.', 'invalid_api_key');
    const error = await rejectionOf(provider().generate(request('gpt-image-1')));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(error).not.toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(KEY);
  });

  it('marks a 429 as retryable with its Retry-After', async () => {
    openAiError(429, 'Rate limit reached for images per minute.', 'rate_limit_exceeded', { 'Retry-After': '7' });
    const error = await rejectionOf(provider().generate(request('gpt-image-1')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 7_000 });
  });

  it('marks a 5xx HTML page as retryable and says what came back', async () => {
    api.server.respondWith((_request, response) => sendBytes(response, 502, 'text/html', Buffer.from('<html>bad gateway</html>')));
    const error = await rejectionOf(provider().generate(request('gpt-image-1')));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(String(error)).toContain('OpenAI answered 502: unexpected text/html');
  });

  it('stops waiting when the call is aborted', async () => {
    api.server.respondWith((_request, response, fake) => fake.stall(response));
    const controller = new AbortController();
    const pending = provider().generate(request('gpt-image-1'), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    expect(String(await rejectionOf(pending))).toContain('caller gave up');
  });
});

describe('OpenAI models through the API', () => {
  it('refuses a size the model does not make, listing the ones it does, before calling OpenAI', async () => {
    const h = await createHarness({ providers: { openai: provider() } });
    try {
      const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'openai/gpt-image-1', width: 800, height: 600 });
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'width', message: expect.stringContaining('1024x1024, 1536x1024, 1024x1536') } });
      expect(api.server.requests).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('refuses a seed, which OpenAI does not take', async () => {
    const h = await createHarness({ providers: { openai: provider() } });
    try {
      const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'openai/dall-e-3', seed: 3 });
      expect(res.status).toBe(400);
      expect((await json(res)).details).toMatchObject({ field: 'seed' });
    } finally {
      await h.close();
    }
  });
});
