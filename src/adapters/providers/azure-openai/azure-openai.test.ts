import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../domain/models/pricing.js';
import {
  ProviderAccountProblem,
  ProviderOutcomeUnknown,
  ProviderRefusal,
  ProviderUnavailable,
  type PartialImage,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { onlyRequest, rejectionOf, sendJson, useLoopbackFake, type ReceivedForm } from '../../../test-support/loopback-server.js';
import { FAKE_TEXT_TOKENS } from '../openai/openai.fake.js';
import { withResilience } from '../resilience/resilient-provider.js';
import { azureOpenAiModels } from './azure-openai-models.js';
import { createAzureOpenAiProvider } from './azure-openai-provider.js';
import { azureOpenAiSuccess, contentFilterAnswer, FAKE_AZURE_KEY, rateLimitAnswer } from './azure-openai.fake.js';

/*
 * The real adapter over real HTTP against a loopback Azure OpenAI resource (azure-openai.fake.ts), whose paths,
 * api-version, api-key header and error bodies follow Azure's REST reference and openai-node's src/azure.ts.
 */

const edits: ReceivedForm[] = [];
const api = useLoopbackFake((images) => {
  edits.length = 0;
  return azureOpenAiSuccess({ imageBase64: images.png.toString('base64'), received: edits });
});

const MAPPED = new Map([
  ['gpt-image-2', 'images-prod'],
  ['gpt-image-1.5', 'images-legacy'],
]);
const provider = (overrides: { deployments?: ReadonlyMap<string, string>; apiKey?: string; endpoint?: string; apiVersion?: string } = {}) =>
  createAzureOpenAiProvider({
    endpoint: overrides.endpoint ?? api.server.origin,
    apiKey: overrides.apiKey ?? FAKE_AZURE_KEY,
    apiVersion: overrides.apiVersion ?? '2025-04-01-preview',
    deployments: overrides.deployments ?? MAPPED,
  });
const request = (providerModel = 'gpt-image-2', extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 1024,
  seed: 7,
  ...extra,
});
const only = () => onlyRequest(api.server);

describe('Azure OpenAI generations', () => {
  it("POSTs OpenAI's JSON body to the model's deployment, with the api-version and the key in api-key", async () => {
    await provider().generate(request());
    const sent = only();
    expect([sent.method, sent.path]).toEqual(['POST', '/openai/deployments/images-prod/images/generations?api-version=2025-04-01-preview']);
    expect(sent.headers['api-key']).toBe(FAKE_AZURE_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'gpt-image-2', prompt: 'a lighthouse at dusk', n: 1, size: '1024x1024', quality: 'medium', output_format: 'png' });
  });

  it('accepts an endpoint given with /openai, as the SDK spells its base URL, and sends the api-version set', async () => {
    api.server.respondWith((_request, response) => sendJson(response, 500, { error: { code: 'InternalServerError', message: 'unexpected' } }));
    await rejectionOf(provider({ endpoint: `${api.server.origin}/openai/`, apiVersion: '2026-01-01-preview' }).generate(request()));
    expect(only().path).toBe('/openai/deployments/images-prod/images/generations?api-version=2026-01-01-preview');
  });

  it('decodes the PNG byte for byte and reports the tokens billed, so the recorded cost follows them', async () => {
    const image = await provider().generate(request());
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect(image.usage).toEqual({ inputTextTokens: FAKE_TEXT_TOKENS, inputImageTokens: 0, outputImageTokens: 1756, outputTextTokens: 0 });
    const model = azureOpenAiModels(new Map([['gpt-image-2', 'images-prod']])).find((m) => m.id === 'azure-openai/gpt-image-2');
    if (model === undefined) throw new Error('azure-openai/gpt-image-2 is not in the catalogue');
    expect(computeCost(model.pricing, { width: 1024, height: 1024 }, image.usage)).toBeCloseTo((FAKE_TEXT_TOKENS * 5 + 1756 * 30) / 1e6, 12);
  });

  it("calls each model's own deployment", async () => {
    await provider().generate(request('gpt-image-1.5', { width: 1536 }));
    expect(only().path).toBe('/openai/deployments/images-legacy/images/generations?api-version=2025-04-01-preview');
  });

  it('streams partial images when asked, as Azure streams the GPT image models', async () => {
    const partials: PartialImage[] = [];
    const image = await provider().generate(request(), { partialImages: { count: 2, onPartial: (partial) => partials.push(partial) } });
    expect(only().body).toMatchObject({ stream: true, partial_images: 2 });
    expect(partials.map((partial) => partial.index)).toEqual([0, 1]);
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });
});

describe('Azure OpenAI edits', () => {
  it('POSTs the input image as multipart to the deployment’s images/edits', async () => {
    const input = { bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: 'photo.png' };
    const image = await provider().generate(request('gpt-image-2', { images: [input], inputFidelity: 'high' }));
    expect(only().path).toBe('/openai/deployments/images-prod/images/edits?api-version=2025-04-01-preview');
    expect(only().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const [form] = edits;
    expect(form?.fields).toMatchObject({ model: 'gpt-image-2', prompt: 'a lighthouse at dusk', input_fidelity: 'high', output_format: 'png' });
    expect(form?.files.image?.[0]?.bytes.equals(api.images.png)).toBe(true);
    expect(image.usage?.inputImageTokens).toBeGreaterThan(0);
  });
});

describe('Azure OpenAI failures', () => {
  it("treats the content filter's 400 as a refusal, saying which category it flagged", async () => {
    api.server.respondWith(contentFilterAnswer);
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Azure OpenAI answered 400: Your request was rejected as a result of our safety system.');
    expect(String(error)).toContain('(content_policy_violation); filtered: violence');
  });

  it('treats the how-to’s contentFilter spelling as a refusal too', async () => {
    api.server.respondWith((_request, response) =>
      sendJson(response, 400, {
        created: 1698435368,
        error: { code: 'contentFilter', message: 'Generated image was filtered as a result of our safety system.' },
      }),
    );
    expect(await rejectionOf(provider().generate(request()))).toBeInstanceOf(ProviderRefusal);
  });

  it("reads a rate limit's wait from retry-after-ms, finer than retry-after", async () => {
    api.server.respondWith(rateLimitAnswer(1_500));
    const error = await rejectionOf(provider().generate(request()));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1_500 });
  });

  it('waits out a rate limit behind the resilience layer and pays once', async () => {
    let calls = 0;
    const success = azureOpenAiSuccess({ imageBase64: api.images.png.toString('base64') });
    api.server.respondWith((sent, response, fake) => (++calls === 1 ? rateLimitAnswer(20)(sent, response, fake) : success(sent, response, fake)));
    const waits: number[] = [];
    const resilient = withResilience(provider(), {
      timeoutMs: 5_000,
      retries: 2,
      baseDelayMs: 1,
      maxDelayMs: 5,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 30_000,
      sleep: async (ms) => void waits.push(ms),
    });
    const image = await resilient.generate(request());
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
    expect([api.server.requests.length, waits]).toEqual([2, [20]]);
  });

  it('retries an outage answered before Azure took the request (503), and never a request whose answer was lost', async () => {
    const resilient = () =>
      withResilience(provider(), {
        timeoutMs: 5_000,
        retries: 2,
        baseDelayMs: 1,
        maxDelayMs: 2,
        maxConcurrent: 1,
        breakerThreshold: 5,
        breakerCooldownMs: 30_000,
      });
    let calls = 0;
    const success = azureOpenAiSuccess({ imageBase64: api.images.png.toString('base64') });
    api.server.respondWith((sent, response, fake) =>
      ++calls <= 2
        ? sendJson(response, 503, { error: { code: 'ServiceUnavailable', message: 'The service is temporarily unable to process your request.' } })
        : success(sent, response, fake),
    );
    await resilient().generate(request());
    expect(api.server.requests).toHaveLength(3);

    api.server.requests.length = 0;
    api.server.respondWith((_sent, response) => void response.socket?.destroy());
    expect(await rejectionOf(resilient().generate(request()))).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(api.server.requests).toHaveLength(1);
  });

  it('reports a deployment the resource lacks as the operator’s problem, naming it and AZURE_OPENAI_DEPLOYMENTS', async () => {
    const error = await rejectionOf(provider({ deployments: new Map([['gpt-image-2', 'images-typo']]) }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('Azure OpenAI answered 404: The API deployment for this resource does not exist.');
    expect(String(error)).toContain('deployment "images-typo" is not an image model deployment of this resource: check AZURE_OPENAI_DEPLOYMENTS');
  });

  it('reports a deployment of a model that makes no images the same way', async () => {
    const error = await rejectionOf(provider({ deployments: new Map([['gpt-image-2', 'chat-prod']]) }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toMatch(/OperationNotSupported.*deployment "chat-prod".*AZURE_OPENAI_DEPLOYMENTS/);
  });

  it('refuses a model no deployment serves without calling Azure', async () => {
    const error = await rejectionOf(provider().generate(request('gpt-image-1-mini')));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('no deployment for gpt-image-1-mini: map it in AZURE_OPENAI_DEPLOYMENTS');
    expect(api.server.requests).toEqual([]);
  });

  it('reports a refused key as the operator’s problem, naming AZURE_OPENAI_API_KEY and never echoing the key', async () => {
    const error = await rejectionOf(provider({ apiKey: 'wrong-key-MUST-NOT-LEAK' }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('Access denied due to invalid subscription key');
    expect(String(error)).toContain('check AZURE_OPENAI_API_KEY');
    expect(String(error)).not.toContain('MUST-NOT-LEAK');
  });

  it('reports an api-version the resource does not serve as the operator’s problem, naming AZURE_OPENAI_API_VERSION', async () => {
    const error = await rejectionOf(provider({ apiVersion: '2023-01-01' }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('API version not supported (BadRequest) (check AZURE_OPENAI_API_VERSION');
  });
});

describe('Azure OpenAI credentials check', () => {
  it('lists the models of the resource with the key, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /openai/models', detail: 'answered 200' });
    expect(only().path).toBe('/openai/models?api-version=2024-10-21');
    expect(only().headers['api-key']).toBe(FAKE_AZURE_KEY);
  });

  it('reports a refused key without echoing it', async () => {
    const check = await provider({ apiKey: 'wrong-key-MUST-NOT-LEAK' }).check?.();
    expect(check).toMatchObject({ ok: false, detail: expect.stringContaining('Azure OpenAI answered 401') });
    expect(JSON.stringify(check)).not.toContain('MUST-NOT-LEAK');
  });
});

describe('the fake resource', () => {
  it('refuses a call without api-version as Azure does', async () => {
    const res = await fetch(`${api.server.origin}/openai/deployments/images-prod/images/generations`, {
      method: 'POST',
      headers: { 'api-key': FAKE_AZURE_KEY, 'content-type': 'application/json' },
      body: '{}',
    });
    expect([res.status, await res.json()]).toEqual([404, { error: { code: '404', message: 'Resource not found' } }]);
  });
});
