import { describe, expect, it } from 'vitest';
import { createReplicateProvider } from '../../src/adapters/providers/replicate/replicate-provider.js';
import { replicateModels } from '../../src/domain/models/catalog/replicate.js';
import { ProviderRefusal, ProviderUnavailable, type ProviderRequest } from '../../src/ports/image-provider.js';
import { parametersFrom } from '../../src/providers.js';
import { prediction, replicateFlow } from './fakes/replicate-fake.js';
import { rejectionOf, sendBytes, sendJson, useLoopbackFake, type Responder } from './loopback-server.js';

/* The real adapter over real HTTP against a loopback stand-in for https://api.replicate.com. */

const TOKEN = 'r8_MUST-NOT-LEAK-91fe';
const SCHNELL = 'black-forest-labs/flux-schnell';
const DEV = 'black-forest-labs/flux-dev';
const api = useLoopbackFake((images) => replicateFlow(images));

const provider = () => createReplicateProvider({ apiToken: TOKEN, baseUrl: api.server.origin, pollIntervalMs: 5 }, parametersFrom(replicateModels));
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({ providerModel, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42, steps: 4, ...extra });
const paths = () => api.server.requests.map((r) => `${r.method} ${r.path}`);

/** Creates answer as given; status checks and files follow the documented flow. */
function createAnswers(answer: Responder): void {
  const flow = replicateFlow(api.images);
  api.server.respondWith((sent, response, fake) => (sent.method === 'POST' && sent.path.endsWith('/predictions') ? answer(sent, response, fake) : flow(sent, response, fake)));
}

describe('Replicate prediction request', () => {
  it('creates a prediction on the model endpoint with Prefer: wait and the token as a bearer token', async () => {
    await provider().generate(request(SCHNELL));
    const [create] = api.server.requests;
    expect(`${create?.method} ${create?.path}`).toBe('POST /v1/models/black-forest-labs/flux-schnell/predictions');
    expect(create?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(create?.headers.prefer).toBe('wait');
    expect(create?.headers['content-type']).toBe('application/json');
  });

  it('sends schnell the prompt, seed, steps and the aspect ratio for width x height, asking for one PNG', async () => {
    await provider().generate(request(SCHNELL, { width: 1344, height: 768, guidance: 3, negativePrompt: 'blurry' }));
    expect(api.server.requests[0]?.body).toEqual({
      input: { prompt: 'a lighthouse at dusk', num_outputs: 1, output_format: 'png', aspect_ratio: '16:9', seed: 42, num_inference_steps: 4 },
    });
  });

  it('sends dev its guidance too', async () => {
    await provider().generate(request(DEV, { width: 832, height: 1216, steps: 28, guidance: 3.5 }));
    expect(api.server.requests[0]?.body).toMatchObject({ input: { aspect_ratio: '2:3', num_inference_steps: 28, guidance: 3.5 } });
  });

  it.each([
    [1024, 1024, '1:1'],
    [1920, 1080, '16:9'],
    [2048, 880, '21:9'],
    [800, 1000, '4:5'],
    [1000, 750, '4:3'],
    [512, 1536, '9:21'],
  ])('maps %ix%i to the nearest aspect ratio, %s', async (width, height, ratio) => {
    await provider().generate(request(SCHNELL, { width, height }));
    expect(api.server.requests[0]?.body).toMatchObject({ input: { aspect_ratio: ratio } });
  });
});

describe('Replicate prediction lifecycle', () => {
  it('polls urls.get with the token until the prediction succeeds, then downloads the output', async () => {
    const image = await provider().generate(request(SCHNELL));
    expect(paths()).toEqual(['POST /v1/models/black-forest-labs/flux-schnell/predictions', 'GET /v1/predictions/pred1', 'GET /files/pred1/out-0.png']);
    expect(api.server.requests[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(image.contentType).toBe('image/png');
  });

  it('skips polling when Prefer: wait returns the prediction finished', async () => {
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'done1', 'succeeded', { output: [`http://${String(sent.headers.host)}/files/done1/out-0.webp`] })));
    const image = await provider().generate(request(SCHNELL));
    expect(paths()).toEqual(['POST /v1/models/black-forest-labs/flux-schnell/predictions', 'GET /files/done1/out-0.webp']);
    expect(image.contentType).toBe('image/webp');
  });

  it('accepts a single output URL as well as a list', async () => {
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'one', 'succeeded', { output: `http://${String(sent.headers.host)}/files/one/out-0.jpg` })));
    expect((await provider().generate(request(SCHNELL))).contentType).toBe('image/jpeg');
  });

  it('sends no token to an output host other than the API', async () => {
    const port = new URL(api.server.origin).port;
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'cdn', 'succeeded', { output: [`http://localhost:${port}/files/cdn/out-0.png`] })));
    await provider().generate(request(SCHNELL));
    expect(api.server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('keeps polling through a transient status-check failure', async () => {
    const flow = replicateFlow(api.images);
    let failed = false;
    api.server.respondWith((sent, response, fake) => {
      if (sent.method === 'GET' && sent.path.startsWith('/v1/predictions/') && !failed) {
        failed = true;
        return sendJson(response, 503, { title: 'Service Unavailable', detail: 'try again', status: 503 });
      }
      return flow(sent, response, fake);
    });
    await provider().generate(request(SCHNELL));
    expect(paths().filter((p) => p.startsWith('GET /v1/predictions/'))).toHaveLength(2);
  });

  it("turns FLUX's NSFW failure into a refusal", async () => {
    createAnswers((sent, response) =>
      sendJson(response, 201, prediction(sent.headers, 'nsfw', 'failed', { error: 'All generated images contained NSFW content. Try running it again with a different prompt.' })),
    );
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('NSFW content');
  });

  it('reports any other failed prediction with its error, not as a refusal', async () => {
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'oom', 'failed', { error: 'CUDA out of memory' })));
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Replicate prediction oom failed: CUDA out of memory');
  });

  it('reports a canceled prediction', async () => {
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'c1', 'canceled')));
    expect(String(await rejectionOf(provider().generate(request(SCHNELL))))).toContain('was canceled');
  });

  it('cancels the prediction when the caller gives up while it runs', async () => {
    api.server.respondWith((sent, response, fake) => {
      if (sent.method === 'POST' && sent.path.endsWith('/predictions')) return sendJson(response, 201, prediction(sent.headers, 'slow', 'processing'));
      if (sent.path.endsWith('/cancel')) return sendJson(response, 200, prediction(sent.headers, 'slow', 'canceled'));
      return sendJson(response, 200, prediction(sent.headers, 'slow', 'processing'));
    });
    const controller = new AbortController();
    const pending = provider().generate(request(SCHNELL), { signal: controller.signal });
    // Give up once the prediction exists (its first poll arrived), however slow the machine is.
    await expect.poll(() => paths().some((path) => path === 'GET /v1/predictions/slow')).toBe(true);
    controller.abort(new Error('timed out'));
    expect(String(await rejectionOf(pending))).toContain('timed out');
    await expect.poll(() => paths()).toContain('POST /v1/predictions/slow/cancel');
  });
});

describe('Replicate errors', () => {
  it("treats a 422 validation error as a refusal quoting Replicate's detail", async () => {
    createAnswers((_sent, response) =>
      sendJson(response, 422, {
        detail: '- input.num_inference_steps: Must be less than or equal to 4\n',
        status: 422,
        title: 'Input validation failed',
        invalid_fields: [{ type: 'number_lte', field: 'input.num_inference_steps', description: 'Must be less than or equal to 4' }],
      }),
    );
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Replicate answered 422: - input.num_inference_steps: Must be less than or equal to 4');
  });

  it('reports a bad token without echoing it', async () => {
    createAnswers((_sent, response) => sendJson(response, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }));
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(TOKEN);
  });

  it('marks a 429 as retryable with its Retry-After', async () => {
    createAnswers((_sent, response) => sendJson(response, 429, { title: 'Request was throttled', detail: 'Request was throttled. Expected available in 2 seconds.', status: 429 }, { 'Retry-After': '2' }));
    expect(await rejectionOf(provider().generate(request(SCHNELL)))).toMatchObject({ status: 429, retryAfterMs: 2_000 });
  });

  it('marks a failed output download as retryable when the CDN answers 5xx', async () => {
    const flow = replicateFlow(api.images);
    api.server.respondWith((sent, response, fake) => {
      if (sent.path === '/broken.png') return sendBytes(response, 503, 'text/plain', Buffer.from('busy'));
      if (sent.method === 'POST') return sendJson(response, 201, prediction(sent.headers, 'gone', 'succeeded', { output: [`http://${String(sent.headers.host)}/broken.png`] }));
      return flow(sent, response, fake);
    });
    expect(await rejectionOf(provider().generate(request(SCHNELL)))).toBeInstanceOf(ProviderUnavailable);
  });
});
