import { describe, expect, it, vi } from 'vitest';
import { workersAiFlow } from './workers-ai.fake.js';
import { formOf, onlyRequest, rejectionOf, useLoopbackFake } from '../../../test-support/loopback-server.js';
import { workersAiModels } from './workers-ai-models.js';
import { computeCost } from '../../../domain/models/pricing.js';
import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderAccountProblem, ProviderOutcomeUnknown, ProviderRefusal } from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import type { MaskConverter } from './inpainting-mask.js';
import { createWorkersAiProvider } from './workers-ai-provider.js';

/*
 * Input images over real HTTP to the loopback Workers AI fake, which rejects (400, code 5004) any shape its model
 * would not take. Asserted as Cloudflare documents them:
 * - FLUX.2: files `input_image_0` .. `input_image_3` in the multipart form, "up to 4 image inputs", "smaller than
 *   512x512" (cloudflare/cloudflare-docs src/content/changelog/workers-ai/2025-11-25-flux-2-dev-workers-ai.mdx,
 *   2026-01-28-flux-2-klein-9b-workers-ai.mdx; curl `--form input_image_0=@/Users/johndoe/Desktop/icedoutkeanu.png`).
 * - SD 1.5 img2img and inpainting: `image` and `mask` as arrays of bytes, `strength` (schemas
 *   src/content/workers-ai-models/stable-diffusion-v1-5-img2img.json at 398302a4 and -inpainting.json at 17331b86;
 *   usage example `image: [...new Uint8Array(await exampleInputImage.arrayBuffer())]` on
 *   developers.cloudflare.com/workers-ai/models/stable-diffusion-v1-5-inpainting/). Their answer is a binary PNG.
 */

const FLUX2_DEV = '@cf/black-forest-labs/flux-2-dev';
const KLEIN_4B = '@cf/black-forest-labs/flux-2-klein-4b';
const IMG2IMG = '@cf/runwayml/stable-diffusion-v1-5-img2img';
const INPAINTING = '@cf/runwayml/stable-diffusion-v1-5-inpainting';
const api = useLoopbackFake((images) => workersAiFlow(images));

const provider = (convertMask?: MaskConverter) =>
  createWorkersAiProvider({ accountId: 'acct', apiToken: 'token', baseUrl: `${api.server.origin}/client/v4`, convertMask }, parametersFrom(workersAiModels));
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'put the cat on the sofa',
  width: 512,
  height: 512,
  seed: 7,
  ...extra,
});
const input = (index: number, size = 80, bytes: Uint8Array = api.images.png): InputImage => ({
  bytes,
  contentType: 'image/png',
  width: size,
  height: size,
  filename: `image-${index}.png`,
});
const entry = (id: string) => workersAiModels.find((model) => model.id === id);

describe('Workers AI FLUX.2 reference images', () => {
  it('sends each image as a file input_image_N of the multipart form, in order, next to the text fields', async () => {
    const jpeg: InputImage = { bytes: api.images.jpeg, contentType: 'image/jpeg', width: 80, height: 48, filename: 'image-1.jpg' };
    const image = await provider().generate(request(FLUX2_DEV, { steps: 25, images: [input(0), jpeg] }));
    expect(image.bytes.length).toBeGreaterThan(0);
    const form = await formOf(onlyRequest(api.server));
    expect([...form.keys()].sort()).toEqual(['height', 'input_image_0', 'input_image_1', 'prompt', 'seed', 'steps', 'width']);
    expect(form.get('prompt')).toBe('put the cat on the sofa');
    for (const [name, sent] of [
      ['input_image_0', input(0)],
      ['input_image_1', jpeg],
    ] as const) {
      const file = form.get(name);
      if (!(file instanceof File)) throw new Error(`${name} was not sent as a file`);
      expect({ name: file.name, type: file.type }).toEqual({ name: sent.filename, type: sent.contentType });
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(sent.bytes))).toBe(true);
    }
  });

  it('takes the documented four references on klein 4B as on dev', async () => {
    await provider().generate(request(KLEIN_4B, { images: [0, 1, 2, 3].map((index) => input(index)) }));
    const form = await formOf(onlyRequest(api.server));
    expect([...form.keys()].filter((name) => name.startsWith('input_image_'))).toEqual(['input_image_0', 'input_image_1', 'input_image_2', 'input_image_3']);
  });

  it('refuses an image over 512x512 before calling, naming the limit, since Cloudflare says inputs must be smaller', async () => {
    const error = await rejectionOf(provider().generate(request(FLUX2_DEV, { images: [input(0), { ...input(1), width: 513, height: 300 }] })));
    expect(error).toBeInstanceOf(ProviderRefusal);
    expect(String(error)).toContain('at most 512x512 pixels; image 1 is 513x300');
    expect(api.server.requests).toHaveLength(0);
  });

  it('declares four references, no mask and no strength, and prices each reference tile', () => {
    for (const id of [FLUX2_DEV, KLEIN_4B, '@cf/black-forest-labs/flux-2-klein-9b'])
      expect(entry(id)?.inputs).toEqual({ max_images: 4, mask: false, strength: false });
    const dev = entry(FLUX2_DEV);
    if (dev === undefined) throw new Error('FLUX.2 [dev] is not in the catalogue');
    // 1024x1024 is 4 output tiles; a 512x512 reference is one input tile; both for each of 25 steps.
    expect(computeCost(dev.pricing, { width: 1024, height: 1024, steps: 25, inputs: [{ width: 512, height: 512 }] })).toBeCloseTo(
      4 * 25 * 0.00041 + 25 * 0.00021,
      12,
    );
  });
});

describe('Workers AI Stable Diffusion 1.5 img2img and inpainting', () => {
  it('sends img2img the image file as an array of its bytes, with strength and the usual fields, and returns the PNG', async () => {
    const image = await provider().generate(request(IMG2IMG, { negativePrompt: 'blurry', steps: 20, guidance: 7.5, strength: 0.6, images: [input(0)] }));
    expect(onlyRequest(api.server).body).toEqual({
      prompt: 'put the cat on the sofa',
      negative_prompt: 'blurry',
      width: 512,
      height: 512,
      seed: 7,
      num_steps: 20,
      guidance: 7.5,
      strength: 0.6,
      image: [...api.images.png],
    });
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(api.images.png)).toBe(true);
  });

  it('sends inpainting the mask as converted for it (white = repaint), as an array of bytes', async () => {
    const converted = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const convertMask = vi.fn<MaskConverter>(async () => converted);
    const mask: InputImage = { ...input(9), filename: 'mask.png' };
    await provider(convertMask).generate(request(INPAINTING, { strength: 1, images: [input(0)], mask }));
    expect(convertMask).toHaveBeenCalledWith(mask, expect.any(AbortSignal));
    expect(onlyRequest(api.server).body).toMatchObject({ strength: 1, image: [...api.images.png], mask: [...converted] });
  });

  it('fails as a settings problem, calling nothing, when inpainting has a mask but no converter was wired', async () => {
    const error = await rejectionOf(provider().generate(request(INPAINTING, { images: [input(0)], mask: input(9) })));
    expect(error).toBeInstanceOf(ProviderAccountProblem);
    expect(api.server.requests).toHaveLength(0);
  });

  it('does not report an unknown outcome when the deadline passes while the mask is still being converted', async () => {
    const stuck: MaskConverter = (_mask, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    const slow = createWorkersAiProvider(
      { accountId: 'acct', apiToken: 'token', baseUrl: `${api.server.origin}/client/v4`, convertMask: stuck, timeoutMs: 50 },
      parametersFrom(workersAiModels),
    );
    const error = await rejectionOf(slow.generate(request(INPAINTING, { images: [input(0)], mask: input(9) })));
    expect(error).not.toBeInstanceOf(ProviderOutcomeUnknown);
    expect(api.server.requests).toHaveLength(0);
  });

  it('declares one image, with strength, and a mask only for inpainting', () => {
    expect(entry(IMG2IMG)?.inputs).toEqual({ max_images: 1, mask: false, strength: true });
    expect(entry(INPAINTING)?.inputs).toEqual({ max_images: 1, mask: true, strength: true });
  });

  it('has a fake that refuses an image where the model takes none, so the shapes above are checked', async () => {
    const response = await fetch(`${api.server.origin}/client/v4/accounts/acct/ai/run/@cf/black-forest-labs/flux-1-schnell`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', image: [1, 2, 3] }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, errors: [{ code: 5004 }] });
  });
});
