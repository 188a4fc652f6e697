import { NodeHttpHandler } from '@smithy/node-http-handler';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCpuPool } from '../../cpu/cpu-pool.js';
import { ProviderRefusal, type InputImage, type ProviderRequest } from '../../../ports/image-provider.js';
import { parametersFrom } from '../../../providers.js';
import { rejectionOf } from '../../../test-support/loopback-server.js';
import { sampleImages, sampleMask, type SampleImages } from '../../../test-support/fake-images.js';
import { bedrockModels } from './bedrock-models.js';
import { createBedrockProvider, type BedrockOptions } from './bedrock-provider.js';
import { BEDROCK_FAKE_REGION, BEDROCK_RANDOM_SEED, startBedrockFake, type BedrockCall, type BedrockFake } from './bedrock.fake.js';

/*
 * The real adapter, through the real AWS SDK and its default request handler (HTTP/2 on Node), against a loopback
 * Bedrock runtime (bedrock.fake.ts). Requests are asserted as the Bedrock user guide shapes the Stability models'
 * bodies (sources in bedrock-models.ts and bedrock-request.ts); the SigV4 header as the SDK signs it for service
 * `bedrock`. Failures are in bedrock-failures.test.ts.
 */

const SECRET = 'fake-secret-MUST-NOT-LEAK-7c1e';
const CREDENTIALS = { accessKeyId: 'AKIDFAKEBEDROCK', secretAccessKey: SECRET };

let fake: BedrockFake;
let images: SampleImages;
beforeAll(async () => {
  [fake, images] = await Promise.all([startBedrockFake(), sampleImages()]);
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());
// The mask is converted on a worker thread, as the service does it.
const cpu = createCpuPool({ threads: 1 });
afterAll(() => cpu.close());

const provider = (options: Partial<BedrockOptions> = {}) =>
  createBedrockProvider(
    { region: BEDROCK_FAKE_REGION, endpoint: fake.origin, credentials: CREDENTIALS, masks: cpu, ...options },
    parametersFrom(bedrockModels),
  );
const request = (providerModel: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({
  providerModel,
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  width: 1024,
  height: 1024,
  seed: 42,
  ...extra,
});
const only = (): BedrockCall => {
  expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toHaveLength(1);
  const [call] = fake.calls;
  if (call === undefined) throw new Error('no request reached the fake');
  return call;
};

describe('Bedrock request', () => {
  it('POSTs InvokeModel over HTTP/2, SigV4-signed for bedrock in the region, with a JSON body', async () => {
    await provider().generate(request('stability.stable-image-core-v1:1'));
    const call = only();
    expect([call.method, call.path, call.modelId, call.httpVersion]).toEqual([
      'POST',
      '/model/stability.stable-image-core-v1%3A1/invoke',
      'stability.stable-image-core-v1:1',
      '2.0',
    ]);
    expect(call.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFAKEBEDROCK\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=[a-z0-9:;-]+, Signature=[0-9a-f]{64}$/,
    );
    expect([call.headers['content-type'], call.headers.accept]).toEqual(['application/json', 'application/json']);
    expect(JSON.stringify(call.headers)).not.toContain(SECRET);
  });

  it.each([
    ['stability.stable-image-core-v1:1', 1920, 1080, '16:9'],
    ['stability.stable-image-ultra-v1:1', 832, 1216, '2:3'],
  ])('sends %s the prompt, negative prompt, seed, PNG output and the nearest aspect ratio', async (model, width, height, ratio) => {
    await provider().generate(request(model, { width, height }));
    expect(only().body).toEqual({ prompt: 'a lighthouse at dusk', negative_prompt: 'blurry', seed: 42, output_format: 'png', aspect_ratio: ratio });
  });

  it('names the text-to-image mode for SD 3.5 Large, which also does image to image', async () => {
    await provider().generate(request('stability.sd3-5-large-v1:0', { negativePrompt: undefined }));
    expect(only().body).toEqual({ prompt: 'a lighthouse at dusk', seed: 42, output_format: 'png', mode: 'text-to-image', aspect_ratio: '1:1' });
  });

  it('returns the image Bedrock made, and the seed it reports using', async () => {
    const image = await provider().generate(request('stability.stable-image-ultra-v1:1'));
    expect(image.contentType).toBe('image/png');
    expect(Buffer.from(image.bytes).equals(images.png)).toBe(true);
    expect(image.seed).toBe(42);
  });

  it("keeps the seed within Stability's range, and records the one Bedrock picked for seed 0 (random)", async () => {
    expect((await provider().generate(request('stability.stable-image-core-v1:1', { seed: 4_294_967_295 }))).seed).toBe(4_294_967_294);
    fake.reset();
    const image = await provider().generate(request('stability.stable-image-core-v1:1', { seed: 0 }));
    expect([(only().body as { seed: number }).seed, image.seed]).toEqual([0, BEDROCK_RANDOM_SEED]);
  });

  it('takes another request handler (NodeHttpHandler, HTTP/1.1), as the shared suite behind its proxy does', async () => {
    await provider({ endpoint: fake.http1Origin, requestHandler: new NodeHttpHandler() }).generate(request('stability.stable-image-core-v1:1'));
    expect(only().httpVersion).toBe('1.1');
  });
});

/*
 * Images in: SD 3.5 Large takes `mode: image-to-image`, `image` (base64) and `strength`, and no aspect ratio; the
 * inpaint service takes `image` and a `mask` whose white pixels are filled and black ones kept (the adapter converts
 * imagegate's transparent-means-change mask); Core and Ultra take no image on Bedrock.
 */
describe('Bedrock images in', () => {
  const photo = (): InputImage => ({ bytes: images.png, contentType: 'image/png', width: 80, height: 48, filename: 'image-0.png' });
  const base64Of = () => images.png.toString('base64');

  it('asks SD 3.5 Large for image to image: mode, the image in base64 and its strength, no aspect ratio', async () => {
    await provider().generate(request('stability.sd3-5-large-v1:0', { images: [photo()], strength: 0.35 }));
    expect(only().body).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: 42,
      output_format: 'png',
      mode: 'image-to-image',
      image: base64Of(),
      strength: 0.35,
    });
  });

  it('sends the midpoint strength when the caller gives none, since Bedrock requires one', async () => {
    await provider().generate(request('stability.sd3-5-large-v1:0', { images: [photo()] }));
    expect((only().body as { strength: number }).strength).toBe(0.5);
  });

  it('inpaints: the image, and the mask turned white where it was transparent, black where opaque', async () => {
    const mask = await sampleMask();
    await provider().generate(
      request('us.stability.stable-image-inpaint-v1:0', {
        images: [photo()],
        mask: { bytes: mask, contentType: 'image/png', width: 80, height: 48, filename: 'mask.png' },
      }),
    );
    const call = only();
    expect(call.path).toBe('/model/us.stability.stable-image-inpaint-v1%3A0/invoke');
    const body = call.body as Record<string, string>;
    expect({ ...body, mask: undefined }).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: 42,
      output_format: 'png',
      image: base64Of(),
      mask: undefined,
    });
    const { data, info } = await sharp(Buffer.from(body.mask ?? '', 'base64'))
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([80, 48, 1]);
    expect([data[0], data[39], data[40], data[79]]).toEqual([255, 255, 0, 0]);
  });

  it("inpaints the image's own transparent pixels when no mask is given", async () => {
    await provider().generate(request('us.stability.stable-image-inpaint-v1:0', { images: [photo()] }));
    expect(only().body).not.toHaveProperty('mask');
  });

  it('refuses what a model cannot take before calling Bedrock: an image for Core, a mask for SD 3.5, inpainting without an image', async () => {
    const mask = { bytes: await sampleMask(), contentType: 'image/png', width: 80, height: 48, filename: 'mask.png' };
    for (const wrong of [
      request('stability.stable-image-core-v1:1', { images: [photo()] }),
      request('stability.sd3-5-large-v1:0', { images: [photo()], mask }),
      request('us.stability.stable-image-inpaint-v1:0'),
      request('amazon.nova-canvas-v1:0'),
    ]) {
      expect(await rejectionOf(provider().generate(wrong)), wrong.providerModel).toBeInstanceOf(ProviderRefusal);
    }
    expect(fake.calls).toEqual([]);
  });

  it('lists image to image for SD 3.5 Large and the mask for inpainting, nothing for Core and Ultra', () => {
    const inputs = Object.fromEntries(bedrockModels.map((model) => [model.provider_model, model.inputs]));
    expect(inputs).toMatchObject({
      'stability.sd3-5-large-v1:0': { max_images: 1, mask: false, strength: true },
      'us.stability.stable-image-inpaint-v1:0': { max_images: 1, mask: true, strength: false },
    });
    expect([inputs['stability.stable-image-core-v1:1'], inputs['stability.stable-image-ultra-v1:1']]).toEqual([undefined, undefined]);
  });
});
