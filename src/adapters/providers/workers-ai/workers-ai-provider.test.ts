import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workersAiModels } from './workers-ai-models.js';
import type { ModelDefinition } from '../../../domain/models/types.js';
import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderAccountProblem, ProviderOutcomeUnknown, ProviderRefusal, ProviderUnavailable } from '../../../ports/image-provider.js';
import { createWorkersAiProvider } from './workers-ai-provider.js';

/*
 * The real adapter, over real HTTP, against a loopback stand-in for Cloudflare's REST API
 * (`POST /client/v4/accounts/{account}/ai/run/{model}`). Going through a socket rather than a fake
 * `fetch` is what checks the URL, headers and body exactly as Cloudflare would receive them: JSON as each model's
 * schema (cloudflare/cloudflare-docs src/content/workers-ai-models/<name>.json) names the fields, and multipart for
 * FLUX.2 as Cloudflare's own curl example on developers.cloudflare.com/ai/models/@cf/black-forest-labs/flux-2-dev/
 * sends it (`--form prompt=... --form steps=25 --form width=1024 --form height=1024`). Error codes as
 * developers.cloudflare.com/workers-ai/platform/errors lists them.
 */

const ACCOUNT = 'acct-0123456789abcdef';
// Distinctive so that any leak into an error message is unmistakable.
const TOKEN = 'cf-token-MUST-NOT-LEAK-7f3a9c';
const FLUX = '@cf/black-forest-labs/flux-1-schnell';
const SDXL = '@cf/stabilityai/stable-diffusion-xl-base-1.0';
const PHOENIX = '@cf/leonardo/phoenix-1.0';
const FLUX2_DEV = '@cf/black-forest-labs/flux-2-dev';
const KLEIN_9B = '@cf/black-forest-labs/flux-2-klein-9b';
const isMultipart = (model: string) => model.startsWith('@cf/black-forest-labs/flux-2-');

/** The multipart fields a request carried, parsed the way a server would. */
async function formFields(request: RecordedRequest): Promise<Record<string, string>> {
  const form = await new Response(new Uint8Array(request.raw), { headers: { 'Content-Type': String(request.headers['content-type']) } }).formData();
  return Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
}

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body parses, the raw text otherwise (so a malformed body still shows up in a failure). */
  body: unknown;
  raw: Buffer;
}

type Responder = (request: RecordedRequest, response: ServerResponse) => void;

const requests: RecordedRequest[] = [];
/** Answers that were deliberately left hanging; ended after each test so no socket outlives it. */
const stalled: ServerResponse[] = [];
let respond: Responder;
let server: Server;
let baseUrl: string;
let png: Buffer;
let jpeg: Buffer;

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

function sendImage(response: ServerResponse, contentType: string, bytes: Buffer): void {
  response.writeHead(200, { 'Content-Type': contentType, 'Content-Length': bytes.length });
  response.end(bytes);
}

function catalogueEntry(id: string): ModelDefinition {
  const entry = workersAiModels.find((model) => model.id === id);
  if (entry === undefined) throw new Error(`${id} is not in the Workers AI catalogue`);
  return entry;
}

// The same lookup the app wires in (src/runtimes/node/deps.ts): what the adapter sends is decided by the catalogue.
function parametersOf(model: string): ReadonlySet<string> {
  return new Set(workersAiModels.find((entry) => entry.provider_model === model)?.parameters ?? []);
}

function provider(options: { timeoutMs?: number } = {}): ImageProvider {
  return createWorkersAiProvider({ accountId: ACCOUNT, apiToken: TOKEN, baseUrl, ...options }, parametersOf);
}

/** Every field set, so the tests show which ones each model's body leaves out. */
function fullRequest(providerModel: string): ProviderRequest {
  return { providerModel, prompt: 'a lighthouse at dusk', negativePrompt: 'blurry', width: 768, height: 512, seed: 1234, steps: 4, guidance: 6.5 };
}

/** The rejection of `promise`; fails the test if it resolves instead. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

function onlyRequest(): RecordedRequest {
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (request === undefined) throw new Error('the fake server received no request');
  return request;
}

beforeAll(async () => {
  // Small but real images, so the byte comparisons below are over genuine PNG/JPEG data.
  const pixels = sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  [png, jpeg] = await Promise.all([pixels.clone().png().toBuffer(), pixels.clone().jpeg().toBuffer()]);

  server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: parseBody(Buffer.concat(chunks).toString('utf8')),
        raw: Buffer.concat(chunks),
      };
      requests.push(recorded);
      respond(recorded, response);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // A path prefix like the real `/client/v4`, to check the adapter appends to it rather than replacing it.
  baseUrl = `http://127.0.0.1:${port}/client/v4`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  requests.length = 0;
  // A test that forgets to set an answer gets a loud, non-image one rather than a hang.
  respond = (_request, response) => sendJson(response, 599, { success: false, errors: [{ code: 0, message: 'no answer set for this test' }] });
});

afterEach(() => {
  for (const response of stalled.splice(0)) response.destroy();
});

describe('Workers AI provider request', () => {
  it('POSTs to {baseUrl}/accounts/{account}/ai/run/{model}, keeping the model id as path segments', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    await provider().generate(fullRequest(FLUX));
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/client/v4/accounts/${ACCOUNT}/ai/run/@cf/black-forest-labs/flux-1-schnell`);
  });

  it('authenticates with the API token as a bearer token and sends JSON', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    await provider().generate(fullRequest(FLUX));
    const { headers } = onlyRequest();
    expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(headers['content-type']).toBe('application/json');
  });

  it('sends FLUX.1 schnell only prompt and steps, since its schema forbids any other property', async () => {
    expect(catalogueEntry(FLUX).parameters).toEqual(['steps']);
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    await provider().generate(fullRequest(FLUX));
    expect(onlyRequest().body).toEqual({ prompt: 'a lighthouse at dusk', steps: 4 });
  });

  it('sends SDXL base every parameter, with the step count as num_steps', async () => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    await provider().generate({ ...fullRequest(SDXL), steps: 20 });
    expect(onlyRequest().body).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      width: 768,
      height: 512,
      seed: 1234,
      num_steps: 20,
      guidance: 6.5,
    });
  });

  it('leaves out optional fields the caller did not set, so the model applies its own defaults', async () => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    await provider().generate({ providerModel: SDXL, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 9 });
    expect(onlyRequest().body).toEqual({ prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 9 });
  });

  // The field name differs per model family (see the catalogue comments); a wrong name is silently ignored upstream.
  it.each(
    workersAiModels
      .filter((model) => model.parameters.includes('steps') && !isMultipart(model.id))
      .map((model) => [model.id, model.id === FLUX || model.id === '@cf/leonardo/lucid-origin' ? 'steps' : 'num_steps'] as const),
  )('names the step count for %s as %s', async (id, field) => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    await provider().generate(fullRequest(id));
    const { body } = onlyRequest();
    expect(body).toHaveProperty(field, 4);
    expect(body).not.toHaveProperty(field === 'steps' ? 'num_steps' : 'steps');
  });

  it('sends only parameters the catalogue lists for the model', async () => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    for (const model of workersAiModels.filter((candidate) => !isMultipart(candidate.id))) {
      requests.length = 0;
      await provider().generate(fullRequest(model.provider_model));
      const { body } = onlyRequest();
      if (typeof body !== 'object' || body === null) throw new Error(`${model.id}: the body sent is not a JSON object`);
      // num_steps is the wire name of the catalogue's `steps` for most models.
      const sent = Object.keys(body).map((key) => (key === 'num_steps' ? 'steps' : key));
      expect(sent.filter((key) => key !== 'prompt').sort(), model.id).toEqual([...model.parameters].sort());
    }
  });
});

describe('Workers AI FLUX.2 (multipart)', () => {
  it('sends FLUX.2 [dev] multipart form fields, with the step count as steps', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    await provider().generate({ ...fullRequest(FLUX2_DEV), width: 1024, height: 768, steps: 25 });
    const request = onlyRequest();
    expect(request.path).toBe(`/client/v4/accounts/${ACCOUNT}/ai/run/${FLUX2_DEV}`);
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(await formFields(request)).toEqual({ prompt: 'a lighthouse at dusk', width: '1024', height: '768', seed: '1234', guidance: '6.5', steps: '25' });
  });

  it('sends klein 9B no steps (fixed at 4) and no guidance', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    await provider().generate(fullRequest(KLEIN_9B));
    expect(await formFields(onlyRequest())).toEqual({ prompt: 'a lighthouse at dusk', width: '768', height: '512', seed: '1234' });
  });

  it('decodes the base64 image FLUX.2 answers', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    const image = await provider().generate(fullRequest(FLUX2_DEV));
    expect(Buffer.from(image.bytes).equals(jpeg)).toBe(true);
  });
});

describe('Workers AI error codes', () => {
  const failWith = (status: number, code: number, message: string) => {
    respond = (_request, response) => sendJson(response, status, { success: false, errors: [{ code, message }], messages: [], result: null });
  };

  it('treats the daily free allocation used up (3036) as an account problem, not a retry', async () => {
    failWith(
      429,
      3036,
      "You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.",
    );
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('daily free allocation');
  });

  it.each([
    [3007, 'Request timeout'],
    [3008, 'Request was aborted'],
  ])('treats the 408 timeout %i as retryable, not a refusal', async (code, message) => {
    failWith(408, code, message);
    expect(await rejectionOf(provider().generate(fullRequest(FLUX)))).toBeInstanceOf(ProviderUnavailable);
  });

  it('treats an unknown model (5007) as a settings problem', async () => {
    failWith(400, 5007, 'No such model @cf/black-forest-labs/flux-9 or task');
    expect(await rejectionOf(provider().generate(fullRequest(FLUX)))).toBeInstanceOf(ProviderAccountProblem);
  });

  it('lists the account models for the credentials check, running nothing', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: [], success: true, errors: [], messages: [] });
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: `GET /client/v4/accounts/${ACCOUNT}/ai/models/search`, detail: 'answered 200' });
    expect(onlyRequest()).toMatchObject({ method: 'GET', path: `/client/v4/accounts/${ACCOUNT}/ai/models/search?task=Text-to-Image` });
  });
});

describe('Workers AI provider answers', () => {
  it('decodes the base64 image of a JSON answer (FLUX.1 schnell) into the exact bytes sent', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: { image: jpeg.toString('base64') }, success: true });
    const image = await provider().generate(fullRequest(FLUX));
    expect(Buffer.from(image.bytes).equals(jpeg)).toBe(true);
    expect((await sharp(image.bytes).metadata()).format).toBe('jpeg');
  });

  it('returns a raw PNG answer (SDXL base) byte for byte, with its content type', async () => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    const image = await provider().generate(fullRequest(SDXL));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(png)).toBe(true);
  });

  it('returns a raw JPEG answer (Phoenix) byte for byte, with its content type', async () => {
    respond = (_request, response) => sendImage(response, 'image/jpeg', jpeg);
    const image = await provider().generate(fullRequest(PHOENIX));
    expect(image.contentType).toBe('image/jpeg');
    expect(Buffer.from(image.bytes).equals(jpeg)).toBe(true);
  });
});

describe('Workers AI provider failures', () => {
  it("refuses with a ProviderRefusal carrying the provider's message, never the API token, on a 400 error envelope", async () => {
    respond = (_request, response) =>
      sendJson(response, 400, {
        success: false,
        errors: [{ code: 5006, message: 'AiError: Input prompt contains NSFW content.' }],
        messages: [],
        result: null,
      });
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(error).toMatchObject({ name: 'ProviderRefusal', message: expect.stringContaining('AiError: Input prompt contains NSFW content.') });
    // Checked on everything an error handler might log, not just the message.
    expect(String(error)).not.toContain(TOKEN);
    expect(error instanceof Error ? error.stack : '').not.toContain(TOKEN);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it.each([
    [500, 'InferenceUpstreamError: upstream failed'],
    [429, 'Capacity temporarily exceeded, please try again.'],
  ])('rejects with a plain, retryable Error naming status %i when the envelope says so', async (status, message) => {
    respond = (_request, response) => sendJson(response, status, { success: false, errors: [{ code: 3040, message }], messages: [], result: null });
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(error).toMatchObject({ message: expect.stringContaining(String(status)) });
    expect(error).toMatchObject({ message: expect.stringContaining(message) });
  });

  it('rejects with a clear Error on an answer that is neither JSON nor an image (an HTML 502 page)', async () => {
    respond = (_request, response) => {
      response.writeHead(502, { 'Content-Type': 'text/html' });
      response.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    };
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(error).toMatchObject({ message: expect.stringMatching(/502.*text\/html/) });
  });

  it('rejects with an Error when a successful JSON answer carries no image', async () => {
    respond = (_request, response) => sendJson(response, 200, { result: {}, success: true });
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: expect.stringContaining('no image') });
  });

  it('rejects with an Error naming the status, not a TypeError, when the JSON answer is not an envelope', async () => {
    respond = (_request, response) => sendJson(response, 503, null);
    const error = await rejectionOf(provider().generate(fullRequest(FLUX)));
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(error).toMatchObject({ message: expect.stringContaining('503') });
  });

  it('gives up after timeoutMs when the server never answers, with an unknown outcome (504), not a bare TimeoutError', async () => {
    respond = (_request, response) => {
      stalled.push(response);
    };
    const started = performance.now();
    const error = await rejectionOf(provider({ timeoutMs: 200 }).generate(fullRequest(FLUX)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true, message: 'Workers AI did not answer within 0 s; the request may have reached it' });
  });

  it('gives up after timeoutMs when the headers arrive but the image body stalls, with an unknown outcome (504)', async () => {
    respond = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      response.write(png.subarray(0, 8));
      stalled.push(response);
    };
    const started = performance.now();
    const error = await rejectionOf(provider({ timeoutMs: 200 }).generate(fullRequest(SDXL)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true, message: 'Workers AI did not answer within 0 s; the request may have reached it' });
  });

  it('rejects without calling the server when the caller has already aborted', async () => {
    respond = (_request, response) => sendImage(response, 'image/png', png);
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(provider().generate(fullRequest(SDXL), { signal: controller.signal })).rejects.toThrow('caller gave up');
    // A later call that does reach the server shows the fake is listening, so the empty log is meaningful.
    expect(requests).toHaveLength(0);
    await provider().generate(fullRequest(SDXL));
    expect(requests).toHaveLength(1);
  });

  it('stops waiting when the caller aborts mid-request', async () => {
    respond = (_request, response) => {
      stalled.push(response);
    };
    const controller = new AbortController();
    const pending = provider().generate(fullRequest(SDXL), { signal: controller.signal });
    // Abort only once the request is on the server, so this exercises an in-flight abort.
    await expect.poll(() => requests.length).toBe(1);
    controller.abort(new Error('client disconnected'));
    await expect(pending).rejects.toThrow('client disconnected');
  });
});
