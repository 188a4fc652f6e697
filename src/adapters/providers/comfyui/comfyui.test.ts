import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createComfyUiProvider } from './comfyui-provider.js';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows } from './workflows.js';
import { withResilience } from '../resilience/resilient-provider.js';
import {
  ProviderAccountProblem,
  ProviderJobAbandoned,
  ProviderRefusal,
  type CallJournal,
  type InputImage,
  type ProviderProgress,
  type ProviderRequest,
} from '../../../ports/image-provider.js';
import { createHarness, json } from '../../../test-support/harness.js';
import { startComfyUiFake, type ComfyFake } from './comfyui.fake.js';
import { sampleImages, type SampleImages } from '../../../test-support/fake-images.js';
import { formOf, rejectionOf } from '../../../test-support/loopback-server.js';

/*
 * The real adapter over real HTTP and a real websocket against a loopback stand-in for a ComfyUI server, asserted as
 * ComfyUI's own sources shape the requests (Comfy-Org/ComfyUI at a125cd84: server.py POST /prompt taking `prompt`,
 * `client_id` and `prompt_id`; GET /history/{prompt_id}; GET /view?filename&subfolder&type; POST /interrupt with
 * `prompt_id`; POST /queue with `delete`; GET /system_stats; the websocket /ws?clientId= and the messages of
 * execution.py and main.py; script_examples/websockets_api_example.py for the client side of the same flow).
 */

const workflows = loadComfyWorkflows(BUNDLED_WORKFLOWS);
let fake: ComfyFake;
let ids = 0;

beforeAll(async () => {
  fake = await startComfyUiFake();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.server.requests.length = 0;
  fake.prompts.length = 0;
  fake.sockets.length = 0;
  fake.inputs.clear();
  fake.set({});
});

const provider = (pollIntervalMs = 5) => createComfyUiProvider({ baseUrl: fake.baseUrl, workflows, pollIntervalMs, newId: () => `id-${(ids += 1)}` });
const request = (extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel: 'sdxl-base',
  prompt: 'a lighthouse at dusk',
  width: 1152,
  height: 896,
  seed: 42,
  steps: 30,
  guidance: 6.5,
  ...extra,
});
const paths = () => fake.server.requests.map((r) => `${r.method} ${r.path}`);
const resilient = (timeoutMs = 60_000) =>
  withResilience(provider(), { timeoutMs, retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxConcurrent: 1, breakerThreshold: 5, breakerCooldownMs: 1_000 });

describe('ComfyUI prompt', () => {
  it('submits the workflow with every mapped value, under a prompt id and the client id of its websocket', async () => {
    await provider().generate(request({ negativePrompt: 'fog' }));
    const [submit] = fake.server.requests.filter((r) => r.path === '/prompt');
    expect(submit?.method).toBe('POST');
    const body = submit?.body as { prompt: Record<string, { inputs: Record<string, unknown> }>; client_id: string; prompt_id: string };
    expect(body.prompt['6']?.inputs.text).toBe('a lighthouse at dusk');
    expect(body.prompt['7']?.inputs.text).toBe('fog');
    expect(body.prompt['3']?.inputs).toMatchObject({ seed: 42, steps: 30, cfg: 6.5, sampler_name: 'dpmpp_2m' });
    expect(body.prompt['5']?.inputs).toMatchObject({ width: 1152, height: 896, batch_size: 1 });
    expect(fake.sockets).toContain(body.client_id);
    expect(body.prompt_id).not.toBe(body.client_id);
  });

  it("keeps the workflow's own negative prompt when the caller gives none", async () => {
    await provider().generate(request());
    expect(fake.prompts[0]?.graph['7']?.inputs.text).toBe('blurry, low quality, watermark, text');
  });

  it('puts FLUX guidance into its FluxGuidance node', async () => {
    await provider().generate(request({ providerModel: 'flux-dev', guidance: 2.5, width: 1344, height: 768 }));
    const graph = fake.prompts[0]?.graph;
    expect(graph?.['35']?.inputs.guidance).toBe(2.5);
    expect(graph?.['27']?.inputs).toMatchObject({ width: 1344, height: 768 });
    expect(graph?.['31']?.inputs).toMatchObject({ seed: 42, steps: 30, cfg: 1 });
  });
});

/*
 * Input images, as ComfyUI's server.py takes them (POST /upload/image: multipart `image` with its file name, `type`,
 * `overwrite`; answers { name, subfolder, type }) and its LoadImage / LoadImageMask nodes load them (nodes.py: the
 * node's `image` input names the uploaded file).
 */
describe('ComfyUI input images', () => {
  const input = (name: string, bytes: Buffer = images.png): InputImage => ({
    bytes: new Uint8Array(bytes),
    contentType: 'image/png',
    width: 80,
    height: 48,
    filename: name,
  });
  let images: SampleImages;
  beforeAll(async () => {
    images = await sampleImages();
  });

  it('uploads the image before queueing the prompt, then names the uploaded file in the LoadImage node', async () => {
    await provider().generate(request({ providerModel: 'sdxl-img2img', images: [input('image-0.png')], strength: 0.35 }));
    expect(paths().filter((p) => p.startsWith('POST '))).toEqual(['POST /upload/image', 'POST /prompt']);
    const [upload] = fake.server.requests;
    if (upload === undefined) throw new Error('nothing reached the fake');
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(upload);
    const file = form.get('image');
    const promptId = fake.prompts[0]?.id ?? '';
    expect(file).toBeInstanceOf(File);
    expect(file instanceof File ? [file.name, file.type, Buffer.from(await file.arrayBuffer()).equals(images.png)] : []).toEqual([
      `imagegate-${promptId}-image-0.png`,
      'image/png',
      true,
    ]);
    expect([form.get('type'), form.get('overwrite')]).toEqual(['input', 'true']);
    const graph = fake.prompts[0]?.graph;
    expect(graph?.['10']).toEqual({ class_type: 'LoadImage', inputs: { image: `imagegate-${promptId}-image-0.png` } });
    expect(graph?.['3']?.inputs).toMatchObject({ denoise: 0.35, seed: 42, steps: 30, cfg: 6.5 });
    expect(fake.inputs.get(`imagegate-${promptId}-image-0.png`)?.bytes.equals(images.png)).toBe(true);
  });

  it("keeps the workflow's own denoise when no strength is given", async () => {
    await provider().generate(request({ providerModel: 'sdxl-img2img', images: [input('image-0.png')] }));
    expect(fake.prompts[0]?.graph['3']?.inputs.denoise).toBe(0.6);
  });

  it('uploads the mask unchanged after the image and names it in the LoadImageMask node, which reads its alpha', async () => {
    const mask = input('mask.png', images.webp);
    await provider().generate(request({ providerModel: 'sdxl-inpaint', images: [input('image-0.png')], mask, strength: 1 }));
    const uploads = await Promise.all(fake.server.requests.filter((r) => r.path === '/upload/image').map(formOf));
    const promptId = fake.prompts[0]?.id ?? '';
    expect(uploads.map((form) => form.get('image')).map((file) => (file instanceof File ? file.name : undefined))).toEqual([
      `imagegate-${promptId}-image-0.png`,
      `imagegate-${promptId}-mask.png`,
    ]);
    // OpenAI's masks (transparent = change) are what LoadImageMask's alpha channel means (mask = 1 - alpha): no conversion.
    expect(fake.inputs.get(`imagegate-${promptId}-mask.png`)?.bytes.equals(images.webp)).toBe(true);
    const graph = fake.prompts[0]?.graph;
    expect(graph?.['10']?.inputs.image).toBe(`imagegate-${promptId}-image-0.png`);
    expect(graph?.['12']?.inputs).toEqual({ image: `imagegate-${promptId}-mask.png`, channel: 'alpha' });
    expect(graph?.['3']?.inputs.denoise).toBe(1);
  });

  it.each([
    ['an image-to-image workflow without its image', { providerModel: 'sdxl-img2img' }, 'ComfyUI workflow sdxl-img2img takes 1 input image, given 0'],
    [
      'an inpainting workflow without its mask',
      { providerModel: 'sdxl-inpaint', images: 'one' },
      'ComfyUI workflow sdxl-inpaint inpaints from a mask: give one',
    ],
    ['a text-to-image workflow given an image', { providerModel: 'sdxl-base', images: 'one' }, 'ComfyUI workflow sdxl-base takes no input images, given 1'],
  ] as const)('refuses %s before anything reaches the server', async (_case, extra, message) => {
    const error = await rejectionOf(
      provider().generate(request({ providerModel: extra.providerModel, images: 'images' in extra ? [input('image-0.png')] : undefined })),
    );
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain(message);
    expect(fake.server.requests).toHaveLength(0);
  });

  it("refuses an image over the server's upload limit (--max-upload-size), and queues nothing", async () => {
    fake.set({ maxUploadBytes: 100 });
    const error = await rejectionOf(provider().generate(request({ providerModel: 'sdxl-img2img', images: [input('image-0.png')] })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('ComfyUI answered 413: Maximum request body size 100 exceeded');
    expect(fake.creations()).toBe(0);
  });
});

describe('ComfyUI progress and result', () => {
  it('learns from the websocket that the prompt finished, without waiting for the next poll', async () => {
    // The prompt finishes after the first history check; with a poll interval far beyond the test timeout, only
    // the websocket can end the wait in time.
    fake.set({ run: 'after-first-poll' });
    const image = await provider(10 * 60_000).generate(request());
    expect(Buffer.from(image.bytes).subarray(1, 4).toString()).toBe('PNG');
  });

  it.each(['silent', 'refused'] as const)('falls back to polling /history/{id} when the websocket is %s', async (websocket) => {
    fake.set({ websocket, run: 'after-first-poll' });
    await provider().generate(request());
    expect(paths().filter((p) => p.startsWith('GET /history/')).length).toBeGreaterThanOrEqual(2);
  });

  it("reports each of the sampler's steps from the websocket as progress, in order, before the image", async () => {
    fake.set({ stepMs: 5 });
    const seen: ProviderProgress[] = [];
    await provider().generate(request({ steps: 8 }), { onProgress: (progress) => seen.push(progress) });
    const fractions = seen.flatMap(({ fraction }) => (fraction === undefined ? [] : [fraction]));
    expect(fractions.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect([...new Set(fractions)]).toEqual([0, 1 / 8, 2 / 8, 3 / 8, 4 / 8, 5 / 8, 6 / 8, 7 / 8, 1]);
    const messages = seen.map(({ message }) => message);
    expect(messages).toContain('running KSampler');
    expect(messages.filter((message) => message?.startsWith('KSampler step'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((step) => `KSampler step ${step}/8`));
    // The decoder runs after the sampler: told in words, at the sampler's end.
    expect(seen.at(-1)).toEqual({ fraction: 1, message: 'running VAEDecode' });
  });

  it('fetches the output named in the history with /view, and reports the seed it sent', async () => {
    const image = await provider().generate(request());
    expect(paths()).toContain('GET /view?filename=imagegate_00001_.png&subfolder=imagegate&type=output');
    expect(image).toMatchObject({ contentType: 'image/png', seed: 42 });
  });

  it('reports a failed run with the node and exception ComfyUI recorded, not as a refusal', async () => {
    fake.set({ outcome: 'error' });
    const error = await rejectionOf(provider().generate(request()));
    expect(error).not.toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('node 3 (KSampler) failed: CUDA out of memory');
  });
});

describe('ComfyUI refusals and settings problems', () => {
  it('refuses a value out of range for its node (value_bigger_than_max)', async () => {
    const error = await rejectionOf(provider().generate(request({ steps: 20_000 })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('Value bigger than max: steps, 20000 > 10000');
  });

  it('reports a checkpoint the server lacks as a settings problem for the operator', async () => {
    const [sdxl] = workflows.filter((w) => w.id === 'sdxl-base');
    if (sdxl === undefined) throw new Error('the bundled SDXL workflow is missing');
    const broken = { ...sdxl, graph: { ...sdxl.graph, '4': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'missing.safetensors' } } } };
    const error = await rejectionOf(createComfyUiProvider({ baseUrl: fake.baseUrl, workflows: [broken], pollIntervalMs: 5 }).generate(request()));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(String(error)).toContain("ckpt_name: 'missing.safetensors' not in");
  });
});

describe('ComfyUI jobs across retries and cancellation', () => {
  it('resumes a prompt whose submission answer was lost instead of queueing it twice', async () => {
    await fetch(`${fake.baseUrl}/prompt`, {
      method: 'POST',
      body: JSON.stringify({ prompt: workflows[1]?.graph, client_id: 'other', prompt_id: 'lost-answer' }),
    });
    const journal: CallJournal = { job: { id: 'lost-answer', pending: true } };
    await provider().generate(request(), { journal });
    expect(fake.creations()).toBe(1);
    expect(journal.job).toEqual({ id: 'lost-answer' });
  });

  it('interrupts and dequeues the prompt when the caller gives up', async () => {
    fake.set({ run: 'forever' });
    const controller = new AbortController();
    const pending = resilient().generate(request(), { signal: controller.signal });
    await expect.poll(() => fake.creations()).toBe(1);
    controller.abort(new Error('caller gone'));
    expect(String(await rejectionOf(pending))).toContain('caller gone');
    const promptId = fake.prompts[0]?.id;
    await expect
      .poll(() => fake.server.requests.filter((r) => r.path === '/interrupt' || r.path === '/queue').map((r) => [r.path, r.body]))
      .toEqual([
        ['/interrupt', { prompt_id: promptId }],
        ['/queue', { delete: [promptId] }],
      ]);
  });

  it('interrupts the prompt when it runs past the deadline, and reports it abandoned', async () => {
    fake.set({ run: 'forever' });
    const error = await rejectionOf(resilient(300).generate(request()));
    expect(error).toBeInstanceOf(ProviderJobAbandoned);
    expect(error).toMatchObject({ status: 504, message: expect.stringContaining('no result within 0 s') });
    await expect.poll(() => paths()).toContain('POST /interrupt');
  });
});

describe('ComfyUI through the API', () => {
  it('sends a different random seed each time none is given, since ComfyUI serves an identical graph from its cache', async () => {
    const h = await createHarness({ providers: { comfyui: provider() } });
    try {
      const first = await json(await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'comfyui/sdxl-base' }));
      const second = await json(await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'comfyui/sdxl-base' }));
      const seeds = fake.prompts.map((p) => p.graph['3']?.inputs.seed);
      expect(seeds[0]).not.toBe(seeds[1]);
      expect([first.parameters, second.parameters]).toEqual([expect.objectContaining({ seed: seeds[0] }), expect.objectContaining({ seed: seeds[1] })]);
    } finally {
      await h.close();
    }
  });

  it('checks the server with /system_stats, running nothing', async () => {
    expect(await provider().check?.()).toEqual({ ok: true, endpoint: 'GET /system_stats', detail: 'answered 200' });
    expect(fake.creations()).toBe(0);
  });
});
