import { describe, expect, it } from 'vitest';
import { createReplicateProvider } from './replicate-provider.js';
import { replicateModels } from './replicate-models.js';
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
import { prediction, replicateFlow } from './replicate.fake.js';
import { formOf, rejectionOf, sendBytes, sendJson, useLoopbackFake, type Responder } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP against a loopback stand-in for https://api.replicate.com. Requests are asserted as
 * Replicate's own SDK and model pages shape them: replicate/replicate-python-beta src/replicate/resources/models/
 * predictions.py (POST /models/{owner}/{name}/predictions with `{ input }`, the `Prefer` and `Cancel-After` headers),
 * src/replicate/resources/account.py (GET /account); inputs from replicate/cog-flux predict.py (schnell, dev: go_fast,
 * aspect_ratio, num_inference_steps, guidance) and the model API pages of flux-1.1-pro and flux-2-pro
 * (aspect_ratio "custom" with width and height). Deadlines: replicate.com/changelog/2025-10-16-prediction-deadlines.
 */

const TOKEN = 'r8_MUST-NOT-LEAK-91fe';
const SCHNELL = 'black-forest-labs/flux-schnell';
const DEV = 'black-forest-labs/flux-dev';
const api = useLoopbackFake((images) => replicateFlow(images));

const provider = (cancelAfterMs?: number) =>
  createReplicateProvider({ apiToken: TOKEN, baseUrl: api.server.origin, pollIntervalMs: 5, cancelAfterMs }, parametersFrom(replicateModels));
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  width: 1024,
  height: 1024,
  seed: 42,
  steps: 4,
  ...extra,
});
const paths = () => api.server.requests.map((r) => `${r.method} ${r.path}`);

/** Creates answer as given; status checks and files follow the documented flow. */
function createAnswers(answer: Responder): void {
  const flow = replicateFlow(api.images);
  api.server.respondWith((sent, response, fake) =>
    sent.method === 'POST' && sent.path.endsWith('/predictions') ? answer(sent, response, fake) : flow(sent, response, fake),
  );
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

  it('sends schnell the prompt, seed, steps and the aspect ratio for width x height, asking for one PNG without go_fast', async () => {
    await provider().generate(request(SCHNELL, { width: 1344, height: 768, guidance: 3, negativePrompt: 'blurry' }));
    expect(api.server.requests[0]?.body).toEqual({
      input: { prompt: 'a lighthouse at dusk', num_outputs: 1, output_format: 'png', aspect_ratio: '16:9', seed: 42, go_fast: false, num_inference_steps: 4 },
    });
  });

  it('turns go_fast off for dev too, so the same prompt and seed give the same image', async () => {
    await provider().generate(request(DEV));
    expect(api.server.requests[0]?.body).toMatchObject({ input: { seed: 42, go_fast: false } });
  });

  it.each([
    ['black-forest-labs/flux-1.1-pro', 1440, 800],
    ['black-forest-labs/flux-2-pro', 1920, 1088],
  ])('sends %s the exact size as aspect_ratio custom with width and height, and no go_fast', async (model, width, height) => {
    await provider().generate(request(model, { width, height }));
    expect(api.server.requests[0]?.path).toBe(`/v1/models/${model}/predictions`);
    expect(api.server.requests[0]?.body).toEqual({
      input: { prompt: 'a lighthouse at dusk', output_format: 'png', aspect_ratio: 'custom', width, height, seed: 42 },
    });
  });

  it('asks the prediction to cancel itself after the provider timeout (Cancel-After), so an abandoned one stops costing', async () => {
    await provider(120_000).generate(request(SCHNELL));
    expect(api.server.requests[0]?.headers['cancel-after']).toBe('120s');
  });

  it('holds the create open at most half the provider timeout (Prefer: wait=n), so its answer comes back before the deadline', async () => {
    await provider(20_000).generate(request(SCHNELL));
    await provider(600_000).generate(request(SCHNELL));
    expect(api.server.requests.filter((r) => r.method === 'POST').map((r) => r.headers.prefer)).toEqual(['wait=10', 'wait=60']);
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

/*
 * Input images, as the model API pages shape them: FLUX.1 Kontext's one `input_image` with aspect_ratio
 * "match_input_image" (replicate.com/black-forest-labs/flux-kontext-pro/versions/0a138193.../api), FLUX.2's
 * `input_images` list (replicate.com/black-forest-labs/flux-2-pro/versions/285631b5.../api). Files as data URIs when
 * under 1 MB (replicate.com/docs/topics/predictions/input-files), else uploaded as replicate-javascript does
 * (lib/files.js createFile: POST /files, multipart `content` and `metadata`; lib/util.js uses the file's `urls.get`;
 * replicate/replicate-javascript commit 2fd6f394).
 */
describe('Replicate input images', () => {
  const KONTEXT = 'black-forest-labs/flux-kontext-pro';
  const FLUX2_PRO = 'black-forest-labs/flux-2-pro';
  // The sample images are 80x48 (5:3).
  const png = (): InputImage => ({ bytes: api.images.png, contentType: 'image/png', width: 80, height: 48, filename: 'image-0.png' });
  const jpeg = (): InputImage => ({ bytes: api.images.jpeg, contentType: 'image/jpeg', width: 80, height: 48, filename: 'image-1.jpg' });
  const dataUri = (image: InputImage) => `data:${image.contentType};base64,${Buffer.from(image.bytes).toString('base64')}`;

  it("sends Kontext the image as input_image, a data URI, keeping the image's proportions with match_input_image", async () => {
    await provider().generate(request(KONTEXT, { width: 1280, height: 768, images: [png()] }));
    expect(api.server.requests[0]?.path).toBe(`/v1/models/${KONTEXT}/predictions`);
    expect(api.server.requests[0]?.body).toEqual({
      input: { prompt: 'a lighthouse at dusk', output_format: 'png', aspect_ratio: 'match_input_image', seed: 42, input_image: dataUri(png()) },
    });
  });

  it('asks Kontext for the nearest of its ratios when the size asked for has other proportions, and for none without an image', async () => {
    await provider().generate(request(KONTEXT, { width: 1024, height: 512, images: [png()] }));
    await provider().generate(request(KONTEXT, { width: 768, height: 1024 }));
    const inputs = api.server.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { input: Record<string, unknown> }).input);
    expect(inputs.map((input) => input.aspect_ratio)).toEqual(['2:1', '3:4']);
    expect(inputs[1]).not.toHaveProperty('input_image');
  });

  it('sends FLUX.2 [pro] every image, in order, as the input_images list, with the exact size', async () => {
    await provider().generate(request(FLUX2_PRO, { width: 1024, height: 768, images: [png(), jpeg()] }));
    expect(api.server.requests[0]?.body).toEqual({
      input: {
        prompt: 'a lighthouse at dusk',
        output_format: 'png',
        aspect_ratio: 'custom',
        width: 1024,
        height: 768,
        seed: 42,
        input_images: [dataUri(png()), dataUri(jpeg())],
      },
    });
  });

  it('uploads a file of 1 MB or more to the file store first and passes its URL, keeping small ones inline', async () => {
    const large: InputImage = { ...png(), bytes: new Uint8Array(1_000_000).fill(7), filename: 'image-1.png' };
    await provider().generate(request(FLUX2_PRO, { images: [png(), large] }));
    expect(paths()).toEqual([`POST /v1/files`, `POST /v1/models/${FLUX2_PRO}/predictions`, 'GET /v1/predictions/pred1', 'GET /files/pred1/out-0.png']);
    const [upload, create] = api.server.requests;
    if (upload === undefined) throw new Error('no upload reached the fake');
    expect(upload.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const form = await formOf(upload);
    const content = form.get('content');
    if (!(content instanceof File)) throw new Error('the upload carried no file');
    expect({ name: content.name, type: content.type, size: content.size, metadata: form.get('metadata') instanceof Blob }).toEqual({
      name: 'image-1.png',
      type: 'image/png',
      size: 1_000_000,
      metadata: true,
    });
    expect(create?.body).toMatchObject({ input: { input_images: [dataUri(png()), `${api.server.origin}/v1/files/file1`] } });
  });

  it('has a fake that refuses an image field the model does not take, so the shapes above are checked', async () => {
    const response = await fetch(`${api.server.origin}/v1/models/${FLUX2_PRO}/predictions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ input: { prompt: 'x', input_image: dataUri(png()) } }),
    });
    expect(response.status).toBe(422);
    expect(api.server.requests).toHaveLength(1);
  });

  it('declares what each model takes, and bills FLUX.2 [pro] inputs per started megapixel each', () => {
    const byId = new Map(replicateModels.map((model) => [model.provider_model, model]));
    expect(byId.get(KONTEXT)?.inputs).toEqual({ max_images: 1, mask: false, strength: false });
    expect(byId.get('black-forest-labs/flux-kontext-max')?.inputs).toEqual({ max_images: 1, mask: false, strength: false });
    expect(byId.get(FLUX2_PRO)?.inputs).toEqual({ max_images: 8, mask: false, strength: false });
    const rule = byId.get(FLUX2_PRO)?.pricing;
    if (rule === undefined) throw new Error('FLUX.2 [pro] is not in the catalogue');
    // Output 1 MP ($0.03); inputs of 1 MP and 1.5 MP (rounded up to 2): 3 x $0.015.
    expect(
      computeCost(rule, {
        width: 1024,
        height: 1024,
        inputs: [
          { width: 1024, height: 1024 },
          { width: 1536, height: 1024 },
        ],
      }),
    ).toBeCloseTo(0.03 + 3 * 0.015, 12);
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

  it('reports its progress from each status check: booting while starting, then the steps its logs show', async () => {
    api.server.respondWith(replicateFlow(api.images, undefined, { booting: 1, steps: 4 }));
    const seen: ProviderProgress[] = [];
    await provider().generate(request(SCHNELL), { onProgress: (progress) => seen.push(progress) });
    expect(seen).toEqual([
      // The create's answer and the first check both find it starting: told once.
      { message: 'starting: the model is booting' },
      { fraction: 0.25, message: 'step 1/4' },
      { fraction: 0.5, message: 'step 2/4' },
      { fraction: 0.75, message: 'step 3/4' },
      { fraction: 1, message: 'step 4/4' },
    ]);
    // One status check per report: the progress costs no request of its own.
    expect(paths().filter((path) => path.startsWith('GET /v1/predictions/'))).toHaveLength(6);
  });

  it('skips polling when Prefer: wait returns the prediction finished', async () => {
    createAnswers((sent, response) =>
      sendJson(response, 201, prediction(sent.headers, 'done1', 'succeeded', { output: [`http://${String(sent.headers.host)}/files/done1/out-0.webp`] })),
    );
    const image = await provider().generate(request(SCHNELL));
    expect(paths()).toEqual(['POST /v1/models/black-forest-labs/flux-schnell/predictions', 'GET /files/done1/out-0.webp']);
    expect(image.contentType).toBe('image/webp');
  });

  it('accepts a single output URL as well as a list', async () => {
    createAnswers((sent, response) =>
      sendJson(response, 201, prediction(sent.headers, 'one', 'succeeded', { output: `http://${String(sent.headers.host)}/files/one/out-0.jpg` })),
    );
    expect((await provider().generate(request(SCHNELL))).contentType).toBe('image/jpeg');
  });

  it('sends no token to an output host other than the API', async () => {
    const port = new URL(api.server.origin).port;
    createAnswers((sent, response) =>
      sendJson(response, 201, prediction(sent.headers, 'cdn', 'succeeded', { output: [`http://localhost:${port}/files/cdn/out-0.png`] })),
    );
    await provider().generate(request(SCHNELL));
    expect(api.server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('resumes the prediction in the journal after a failed status check instead of creating another', async () => {
    const flow = replicateFlow(api.images);
    let failed = false;
    api.server.respondWith((sent, response, fake) => {
      if (sent.method === 'GET' && sent.path.startsWith('/v1/predictions/') && !failed) {
        failed = true;
        return sendJson(response, 503, { title: 'Service Unavailable', detail: 'try again', status: 503 });
      }
      return flow(sent, response, fake);
    });
    const journal: CallJournal = {};
    expect(await rejectionOf(provider().generate(request(SCHNELL), { journal }))).toBeInstanceOf(ProviderUnavailable);
    expect(journal.job?.id).toBe('pred1');
    await provider().generate(request(SCHNELL), { journal });
    expect(paths().filter((p) => p.startsWith('POST /v1/models/'))).toHaveLength(1);
    expect(paths().filter((p) => p === 'GET /v1/predictions/pred1')).toHaveLength(2);
  });

  it('retries a failed download as a download', async () => {
    const flow = replicateFlow(api.images);
    let failed = false;
    api.server.respondWith((sent, response, fake) => {
      if (sent.path.startsWith('/files/') && !failed) {
        failed = true;
        return sendBytes(response, 503, 'text/plain', Buffer.from('busy'));
      }
      return flow(sent, response, fake);
    });
    const journal: CallJournal = {};
    expect(await rejectionOf(provider().generate(request(SCHNELL), { journal }))).toBeInstanceOf(ProviderUnavailable);
    api.server.requests.length = 0;
    await provider().generate(request(SCHNELL), { journal });
    expect(paths()).toEqual(['GET /files/pred1/out-0.png']);
  });

  it("turns FLUX's NSFW failure into a refusal", async () => {
    createAnswers((sent, response) =>
      sendJson(
        response,
        201,
        prediction(sent.headers, 'nsfw', 'failed', { error: 'All generated images contained NSFW content. Try running it again with a different prompt.' }),
      ),
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

  it('reports a prediction its deadline aborted before it started', async () => {
    createAnswers((sent, response) => sendJson(response, 201, prediction(sent.headers, 'late', 'aborted')));
    expect(String(await rejectionOf(provider().generate(request(SCHNELL))))).toContain('Replicate prediction late was aborted');
  });

  it('cancels the prediction when the caller gives up while it runs', async () => {
    api.server.respondWith((sent, response) => {
      if (sent.method === 'POST' && sent.path.endsWith('/predictions')) return sendJson(response, 201, prediction(sent.headers, 'slow', 'processing'));
      if (sent.path.endsWith('/cancel')) return sendJson(response, 200, prediction(sent.headers, 'slow', 'canceled'));
      return sendJson(response, 200, prediction(sent.headers, 'slow', 'processing'));
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
    const pending = resilient.generate(request(SCHNELL), { signal: controller.signal });
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

  it('reports a bad token as an account problem without echoing it', async () => {
    createAnswers((_sent, response) =>
      sendJson(response, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }),
    );
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain("check the provider's API key");
    expect(String(error)).not.toContain(TOKEN);
  });

  it('reports an account out of credit (402) as an account problem, not a refusal', async () => {
    createAnswers((_sent, response) =>
      sendJson(response, 402, {
        title: 'Insufficient credit',
        detail: 'You have insufficient credit to run this model. Go to https://replicate.com/account/billing to purchase credit.',
        status: 402,
      }),
    );
    const error = await rejectionOf(provider().generate(request(SCHNELL)));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain('out of credit');
  });

  it('checks the token by reading its account, generating nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /v1/account', detail: 'answered 200' });
    expect(api.server.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([['GET', '/v1/account', `Bearer ${TOKEN}`]]);
  });

  it('marks a 429 as retryable with its Retry-After', async () => {
    createAnswers((_sent, response) =>
      sendJson(
        response,
        429,
        { title: 'Request was throttled', detail: 'Request was throttled. Expected available in 2 seconds.', status: 429 },
        { 'Retry-After': '2' },
      ),
    );
    expect(await rejectionOf(provider().generate(request(SCHNELL)))).toMatchObject({ status: 429, retryAfterMs: 2_000 });
  });

  it('marks a failed output download as retryable when the CDN answers 5xx', async () => {
    const flow = replicateFlow(api.images);
    api.server.respondWith((sent, response, fake) => {
      if (sent.path === '/broken.png') return sendBytes(response, 503, 'text/plain', Buffer.from('busy'));
      if (sent.method === 'POST')
        return sendJson(response, 201, prediction(sent.headers, 'gone', 'succeeded', { output: [`http://${String(sent.headers.host)}/broken.png`] }));
      return flow(sent, response, fake);
    });
    expect(await rejectionOf(provider().generate(request(SCHNELL)))).toBeInstanceOf(ProviderUnavailable);
  });
});
