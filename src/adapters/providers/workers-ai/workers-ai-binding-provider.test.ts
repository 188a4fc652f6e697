import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/config.js';
import { workersAiModels } from './workers-ai-models.js';
import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderAccountProblem, ProviderOutcomeUnknown, ProviderRefusal, ProviderUnavailable } from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { DEFAULT_RESILIENCE, withResilience } from '../resilience/resilient-provider.js';
import type { MaskConverter } from './inpainting-mask.js';
import { createWorkersAiBindingProvider, type AiBinding } from './workers-ai-binding-provider.js';
import { workersAiBindingSpec } from './workers-ai-binding-spec.js';

/*
 * The binding adapter against a stand-in for a Worker's `env.AI`, answering as the real binding does (workerd
 * src/cloudflare/internal/ai-api.ts at 6552d999): a JSON answer parsed (`{ image: <base64> }` for FLUX.1 schnell, Lucid
 * Origin and FLUX.2), any other answer as the body's ReadableStream (PNG for the Stable Diffusion family, JPEG for
 * Phoenix, per the output schemas in cloudflare/cloudflare-docs src/content/workers-ai-models/<name>.json), and failures
 * thrown as an Error named InferenceUpstreamError whose message is `${internalCode}: ${description}`.
 */

const FLUX = '@cf/black-forest-labs/flux-1-schnell';
const SDXL = '@cf/stabilityai/stable-diffusion-xl-base-1.0';
const PHOENIX = '@cf/leonardo/phoenix-1.0';
const LUCID = '@cf/leonardo/lucid-origin';
const FLUX2_DEV = '@cf/black-forest-labs/flux-2-dev';
const KLEIN_9B = '@cf/black-forest-labs/flux-2-klein-9b';
const IMG2IMG = '@cf/runwayml/stable-diffusion-v1-5-img2img';
const INPAINTING = '@cf/runwayml/stable-diffusion-v1-5-inpainting';
const isMultipart = (model: string) => model.startsWith('@cf/black-forest-labs/flux-2-');

/** How the binding answers each catalogue model; a model added to the catalogue without a shape here fails the test. */
const ANSWERS: Record<string, 'base64' | 'png stream' | 'jpeg stream'> = {
  [FLUX]: 'base64',
  [LUCID]: 'base64',
  [FLUX2_DEV]: 'base64',
  '@cf/black-forest-labs/flux-2-klein-4b': 'base64',
  [KLEIN_9B]: 'base64',
  [SDXL]: 'png stream',
  '@cf/bytedance/stable-diffusion-xl-lightning': 'png stream',
  '@cf/lykon/dreamshaper-8-lcm': 'png stream',
  [IMG2IMG]: 'png stream',
  [INPAINTING]: 'png stream',
  [PHOENIX]: 'jpeg stream',
};

interface RunCall {
  model: string;
  inputs: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A stand-in for `env.AI` that records each call and answers with `answer` (a value, a promise, or a throw). */
function fakeAi(answer: (call: RunCall) => unknown) {
  const calls: RunCall[] = [];
  const ai: AiBinding = {
    run(model, inputs, options) {
      const call = { model, inputs, signal: options?.signal };
      calls.push(call);
      return Promise.resolve().then(() => answer(call));
    },
  };
  return { ai, calls };
}

/** What workerd's binding throws: a plain Error carrying the answer's name. */
function bindingError(message: string, name = 'InferenceUpstreamError'): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** The bytes as the binding streams them, in chunks of `size`, so the adapter must put them back together. */
function streamOf(bytes: Uint8Array, size = 16): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += size) controller.enqueue(bytes.slice(offset, offset + size));
      controller.close();
    },
  });
}

let png: Buffer;
let jpeg: Buffer;
const base64Jpeg = () => ({ image: jpeg.toString('base64') });

const provider = (ai: AiBinding, options: { timeoutMs?: number; convertMask?: MaskConverter } = {}) =>
  createWorkersAiBindingProvider({ ai, ...options }, parametersFrom(workersAiModels));

/** Every field set, so the tests show which ones each model's inputs leave out. */
const fullRequest = (providerModel: string): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  width: 768,
  height: 512,
  seed: 1234,
  steps: 4,
  guidance: 6.5,
});
const input = (index: number, size = 80): InputImage => ({ bytes: png, contentType: 'image/png', width: size, height: size, filename: `image-${index}.png` });

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject, but it resolved');
}

function onlyCall(calls: RunCall[]): RunCall {
  expect(calls).toHaveLength(1);
  const [call] = calls;
  if (call === undefined) throw new Error('the binding was not called');
  return call;
}

/** The multipart form FLUX.2's inputs carry, parsed as Workers AI would from its stream and boundary. */
async function formOf(inputs: Record<string, unknown>): Promise<FormData> {
  expect(Object.keys(inputs)).toEqual(['multipart']);
  const multipart = inputs.multipart;
  if (typeof multipart !== 'object' || multipart === null || !('body' in multipart) || !('contentType' in multipart))
    throw new Error('no { body, contentType }');
  const { body, contentType } = multipart;
  if (!(body instanceof ReadableStream) || typeof contentType !== 'string') throw new Error('the multipart body is not a stream with its content type');
  expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
  return new Response(body, { headers: { 'Content-Type': contentType } }).formData();
}

const textFields = (form: FormData) => Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'));

beforeAll(async () => {
  const pixels = sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  [png, jpeg] = await Promise.all([pixels.clone().png().toBuffer(), pixels.clone().jpeg().toBuffer()]);
});

describe('Workers AI binding inputs', () => {
  it('runs the catalogue model by its Workers AI name, sending FLUX.1 schnell only prompt and steps', async () => {
    const fake = fakeAi(base64Jpeg);
    await provider(fake.ai).generate(fullRequest(FLUX));
    const call = onlyCall(fake.calls);
    expect(call.model).toBe(FLUX);
    expect(call.inputs).toEqual({ prompt: 'a lighthouse at dusk', steps: 4 });
  });

  it('sends SDXL base every parameter, with the step count as num_steps', async () => {
    const fake = fakeAi(() => streamOf(png));
    await provider(fake.ai).generate({ ...fullRequest(SDXL), steps: 20 });
    expect(onlyCall(fake.calls).inputs).toEqual({
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
    const fake = fakeAi(() => streamOf(png));
    await provider(fake.ai).generate({ providerModel: SDXL, prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 9 });
    expect(onlyCall(fake.calls).inputs).toEqual({ prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 9 });
  });

  it.each(
    workersAiModels
      .filter((model) => model.parameters.includes('steps') && !isMultipart(model.id))
      .map((model) => [model.id, model.id === FLUX || model.id === LUCID ? 'steps' : 'num_steps'] as const),
  )('names the step count for %s as %s', async (id, field) => {
    const fake = fakeAi(() => (ANSWERS[id] === 'base64' ? base64Jpeg() : streamOf(png)));
    await provider(fake.ai).generate(fullRequest(id));
    const { inputs } = onlyCall(fake.calls);
    expect(inputs).toHaveProperty(field, 4);
    expect(inputs).not.toHaveProperty(field === 'steps' ? 'num_steps' : 'steps');
  });

  it('sends each JSON model only the parameters its catalogue entry lists', async () => {
    for (const model of workersAiModels.filter((candidate) => !isMultipart(candidate.id))) {
      const fake = fakeAi(() => (ANSWERS[model.id] === 'base64' ? base64Jpeg() : streamOf(png)));
      await provider(fake.ai).generate(fullRequest(model.provider_model));
      const sent = Object.keys(onlyCall(fake.calls).inputs).map((key) => (key === 'num_steps' ? 'steps' : key));
      expect(sent.filter((key) => key !== 'prompt').sort(), model.id).toEqual([...model.parameters].sort());
    }
  });

  it('sends FLUX.2 [dev] a multipart form with its boundary, the fields as text and the step count as steps', async () => {
    const fake = fakeAi(base64Jpeg);
    await provider(fake.ai).generate({ ...fullRequest(FLUX2_DEV), width: 1024, height: 768, steps: 25 });
    const form = await formOf(onlyCall(fake.calls).inputs);
    expect(textFields(form)).toEqual({ prompt: 'a lighthouse at dusk', width: '1024', height: '768', seed: '1234', guidance: '6.5', steps: '25' });
  });

  it('sends klein 9B no steps (fixed at 4) and no guidance', async () => {
    const fake = fakeAi(base64Jpeg);
    await provider(fake.ai).generate(fullRequest(KLEIN_9B));
    expect(textFields(await formOf(onlyCall(fake.calls).inputs))).toEqual({ prompt: 'a lighthouse at dusk', width: '768', height: '512', seed: '1234' });
  });

  it('sends FLUX.2 reference images as files input_image_N, byte for byte, with their type and name', async () => {
    const fake = fakeAi(base64Jpeg);
    await provider(fake.ai).generate({ ...fullRequest(FLUX2_DEV), images: [input(0), input(1)] });
    const form = await formOf(onlyCall(fake.calls).inputs);
    for (const name of ['input_image_0', 'input_image_1']) {
      const file = form.get(name);
      if (!(file instanceof File)) throw new Error(`${name} was not sent as a file`);
      expect({ name: file.name, type: file.type }).toEqual({ name: `image-${name.slice(-1)}.png`, type: 'image/png' });
      expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    }
  });

  it('refuses a FLUX.2 reference over 512x512 without calling the binding', async () => {
    const fake = fakeAi(base64Jpeg);
    expect(await rejectionOf(provider(fake.ai).generate({ ...fullRequest(FLUX2_DEV), images: [input(0, 513)] }))).toBeInstanceOf(ProviderRefusal);
    expect(fake.calls).toHaveLength(0);
  });

  it('sends SD 1.5 img2img its image as a plain array of byte values, since the binding JSON-encodes the inputs', async () => {
    const fake = fakeAi(() => streamOf(png));
    await provider(fake.ai).generate({ providerModel: IMG2IMG, prompt: 'a red barn', width: 512, height: 512, seed: 7, strength: 0.4, images: [input(0)] });
    const { inputs } = onlyCall(fake.calls);
    expect(Array.isArray(inputs.image)).toBe(true);
    expect(JSON.parse(JSON.stringify(inputs))).toEqual({ prompt: 'a red barn', width: 512, height: 512, seed: 7, strength: 0.4, image: [...png] });
  });

  it('sends SD 1.5 inpainting the mask the converter made, as byte values', async () => {
    const fake = fakeAi(() => streamOf(png));
    const converted = new Uint8Array([1, 2, 3]);
    const mask: InputImage = { ...input(1), filename: 'mask.png' };
    await provider(fake.ai, { convertMask: async (given) => (given === mask ? converted : new Uint8Array()) }).generate({
      ...fullRequest(INPAINTING),
      images: [input(0)],
      mask,
    });
    expect(onlyCall(fake.calls).inputs.mask).toEqual([1, 2, 3]);
  });

  it('fails an inpainting call as a settings problem, calling nothing, when no mask converter was given', async () => {
    const fake = fakeAi(() => streamOf(png));
    expect(await rejectionOf(provider(fake.ai).generate({ ...fullRequest(INPAINTING), images: [input(0)], mask: input(1) }))).toBeInstanceOf(
      ProviderAccountProblem,
    );
    expect(fake.calls).toHaveLength(0);
  });
});

describe('Workers AI binding answers', () => {
  it('covers every catalogue model with the answer shape its schema documents', () => {
    expect(Object.keys(ANSWERS).sort()).toEqual(workersAiModels.map((model) => model.provider_model).sort());
  });

  it.each(workersAiModels.map((model) => [model.provider_model, ANSWERS[model.provider_model]] as const))(
    'returns the image %s answers as %s, byte for byte, typed from its bytes',
    async (model, shape) => {
      const sent = shape === 'png stream' ? png : jpeg;
      const fake = fakeAi(() => (shape === 'base64' ? base64Jpeg() : streamOf(sent)));
      const image = await provider(fake.ai, { convertMask: async (mask) => mask.bytes }).generate(fullRequest(model));
      expect(image.contentType).toBe(shape === 'png stream' ? 'image/png' : 'image/jpeg');
      expect(Buffer.from(image.bytes).equals(sent)).toBe(true);
    },
  );

  it('decodes a base64 image given as a data: URI', async () => {
    const fake = fakeAi(() => ({ image: `data:image/png;base64,${png.toString('base64')}` }));
    const image = await provider(fake.ai).generate(fullRequest(FLUX));
    expect({ type: image.contentType, same: Buffer.from(image.bytes).equals(png) }).toEqual({ type: 'image/png', same: true });
  });

  it.each([
    ['an object without an image', { result: {} }, 'no image'],
    ['nothing', null, 'no image'],
    ['base64 that is not base64', { image: '!!not base64!!' }, 'not valid base64'],
    ['bytes that are not an image', { image: Buffer.from('<html>oops</html>').toString('base64') }, 'not a PNG, JPEG or WebP image'],
  ])('rejects with a plain Error, not a refusal, when the binding answers %s', async (_what, answer, words) => {
    const error = await rejectionOf(provider(fakeAi(() => answer).ai).generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(error).not.toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ message: expect.stringContaining(words) });
  });
});

describe('Workers AI binding error codes', () => {
  it.each([3036, 3023, 3041, 5016, 5018, 5007, 3042])('treats code %i as the operator’s problem, not a retry', async (code) => {
    const fake = fakeAi(() => {
      throw bindingError(`${code}: You have used up your daily free allocation of 10,000 neurons.`);
    });
    const error = await rejectionOf(provider(fake.ai).generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(error).toMatchObject({ message: expect.stringContaining(`${code}: You have used up your daily free allocation`) });
  });

  it.each([
    [3007, 408, '3007: Request timeout'],
    [3008, 408, '3008: Request was aborted'],
    [3040, 429, 'AiError: 3040: No more data centers to forward the request to'],
  ])('treats code %i as retryable, with the status %i Workers AI gives it', async (_code, status, message) => {
    const error = await rejectionOf(provider(fakeAi(() => Promise.reject(bindingError(message))).ai).generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status });
  });

  it.each([
    [5004, 'Invalid data type for base64 input: object'],
    [3006, 'Request is too large'],
    [3030, 'Input prompt contains NSFW content'],
  ])('refuses the request on code %i, in Workers AI’s own words', async (code, words) => {
    const error = await rejectionOf(provider(fakeAi(() => Promise.reject(bindingError(`${code}: ${words}`, 'AiError'))).ai).generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(error).toMatchObject({ message: `Workers AI answered ${code}: ${words}` });
  });

  it('leaves the outcome unknown on a code Workers AI does not document, naming only the code', async () => {
    const error = await rejectionOf(provider(fakeAi(() => Promise.reject(bindingError('9999: upstream 10.0.3.7 exploded'))).ai).generate(fullRequest(FLUX)));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: false, message: expect.stringContaining('code 9999') });
    expect(String(error)).not.toContain('10.0.3.7');
  });

  it.each([
    ['an uncoded InferenceUpstreamError', bindingError('<html>502 Bad Gateway</html> at /srv/inference/worker.py:88')],
    ['a network TypeError', new TypeError('Network connection lost. at /srv/inference/worker.py:88')],
    ['a thrown string', 'socket hang up at /srv/inference/worker.py:88'],
  ])('leaves the outcome unknown after %s, repeating none of it', async (_what, thrown) => {
    const error = await rejectionOf(provider(fakeAi(() => Promise.reject(thrown)).ai).generate(fullRequest(SDXL)));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({
      timedOut: false,
      message: 'Workers AI failed with no Workers AI error code after the request was sent; the request may have reached it',
    });
    for (const leak of ['/srv/inference', 'InferenceUpstreamError', 'TypeError', '502'])
      expect(JSON.stringify({ ...(error as object), text: String(error) })).not.toContain(leak);
  });

  it('leaves the outcome unknown when the image stream breaks off mid-body', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start: (controller) => (controller.enqueue(png.subarray(0, 8)), controller.error(new TypeError('Network connection lost.'))),
    });
    const error = await rejectionOf(provider(fakeAi(() => broken).ai).generate(fullRequest(SDXL)));
    expect(error).toMatchObject({ name: 'ProviderOutcomeUnknown', timedOut: false });
  });

  it('fails plainly, not as an unknown outcome, when the binding refuses the inputs before sending them', async () => {
    const fake = fakeAi(() => Promise.reject(bindingError('Content-Type is required with ReadableStream inputs', 'AiInternalError')));
    const error = await rejectionOf(provider(fake.ai).generate(fullRequest(FLUX2_DEV)));
    expect(error).not.toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ message: expect.stringContaining('before sending them') });
  });
});

describe('Workers AI binding deadlines and aborts', () => {
  const never = (call: RunCall) => new Promise<never>((_resolve, reject) => call.signal?.addEventListener('abort', () => reject(call.signal?.reason)));

  it.each([
    ['honours the signal it is given', never],
    ['ignores the signal', () => new Promise<never>(() => undefined)],
  ])('gives up after timeoutMs with an unknown outcome when a binding that %s never answers', async (_what, answer) => {
    const fake = fakeAi(answer);
    const started = performance.now();
    const error = await rejectionOf(provider(fake.ai, { timeoutMs: 100 }).generate(fullRequest(FLUX)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true, message: 'Workers AI did not answer within 0 s; the request may have reached it' });
    expect(onlyCall(fake.calls).signal?.aborted).toBe(true);
  });

  it('gives up with an unknown outcome, and cancels the stream, when the image stream stalls', async () => {
    const cancelled: unknown[] = [];
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(png.subarray(0, 8)),
      cancel: (reason) => void cancelled.push(reason),
    });
    const error = await rejectionOf(provider(fakeAi(() => stalled).ai, { timeoutMs: 100 }).generate(fullRequest(SDXL)));
    expect(error).toMatchObject({ name: 'ProviderOutcomeUnknown', timedOut: true });
    expect(cancelled).toHaveLength(1);
  });

  it('cancels a stream that only arrives after the deadline, since nobody will read it', async () => {
    const cancelled: unknown[] = [];
    const late = new ReadableStream<Uint8Array>({ cancel: (reason) => void cancelled.push(reason) });
    const fake = fakeAi(() => new Promise((resolve) => setTimeout(() => resolve(late), 150)));
    expect(await rejectionOf(provider(fake.ai, { timeoutMs: 50 }).generate(fullRequest(SDXL)))).toBeInstanceOf(ProviderOutcomeUnknown);
    await expect.poll(() => cancelled.length).toBe(1);
  });

  it('rejects with the caller’s reason, calling nothing, when the caller has already aborted', async () => {
    const fake = fakeAi(() => streamOf(png));
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(provider(fake.ai).generate(fullRequest(SDXL), { signal: controller.signal })).rejects.toThrow('caller gave up');
    expect(fake.calls).toHaveLength(0);
  });

  it('stops waiting with the caller’s reason when the caller aborts mid-call', async () => {
    const fake = fakeAi(() => new Promise<never>(() => undefined));
    const controller = new AbortController();
    const pending = provider(fake.ai).generate(fullRequest(SDXL), { signal: controller.signal });
    await expect.poll(() => fake.calls.length).toBe(1);
    controller.abort(new Error('client disconnected'));
    await expect(pending).rejects.toThrow('client disconnected');
  });

  it('reports a deadline passed while the mask was still converting as it is, not as an unknown outcome', async () => {
    const fake = fakeAi(() => streamOf(png));
    const slow: MaskConverter = (_mask, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    const error = await rejectionOf(
      provider(fake.ai, { timeoutMs: 50, convertMask: slow }).generate({ ...fullRequest(INPAINTING), images: [input(0)], mask: input(1) }),
    );
    expect(error).not.toBeInstanceOf(ProviderOutcomeUnknown);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('Workers AI binding spec', () => {
  const spec = (ai: AiBinding) => workersAiBindingSpec(ai);
  // A Worker with no provider settings at all: the binding needs none.
  const noSettings = parseConfig({}).providerEnv;
  const settings = {
    timeoutMs: 5_000,
    cpu: { render: () => Promise.reject(new Error('unused')), edit: () => Promise.reject(new Error('unused')), inpaintMask: async () => new Uint8Array([9]) },
  };
  const resilient = (ai: AiBinding) =>
    withResilience(spec(ai).create(noSettings, fetch, parametersFrom(workersAiModels), settings), {
      ...DEFAULT_RESILIENCE,
      timeoutMs: 5_000,
      sleep: async () => undefined,
    });

  it('stands in for the REST entry: same id and models, nothing required, remote', () => {
    expect(spec(fakeAi(base64Jpeg).ai)).toMatchObject({ id: 'workers-ai', requires: [], remote: true });
    expect(spec(fakeAi(base64Jpeg).ai).models(noSettings)).toBe(workersAiModels);
  });

  it('converts inpainting masks with the runtime’s image work', async () => {
    const fake = fakeAi(() => streamOf(png));
    await resilient(fake.ai).generate({ ...fullRequest(INPAINTING), images: [input(0)], mask: input(1) });
    expect(onlyCall(fake.calls).inputs.mask).toEqual([9]);
  });

  it('is retried on no capacity (3040), behind the resilience wrapper', async () => {
    let attempts = 0;
    const fake = fakeAi(() => (++attempts === 1 ? Promise.reject(bindingError('3040: No more data centers to forward the request to')) : base64Jpeg()));
    expect((await resilient(fake.ai).generate(fullRequest(FLUX))).contentType).toBe('image/jpeg');
    expect(fake.calls).toHaveLength(2);
  });

  it('is never sent twice when the outcome is unknown (a paid call may have run)', async () => {
    const fake = fakeAi(() => Promise.reject(bindingError('connection reset')));
    expect(await rejectionOf(resilient(fake.ai).generate(fullRequest(FLUX)))).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(fake.calls).toHaveLength(1);
  });
});
