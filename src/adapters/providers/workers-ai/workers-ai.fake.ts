import { isRecord } from '../http-support.js';
import {
  formOf,
  sendBytes,
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
  type RecordedRequest,
  type Responder,
} from '../../../test-support/loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

const SD15_IMG2IMG = '@cf/runwayml/stable-diffusion-v1-5-img2img';
const SD15_INPAINTING = '@cf/runwayml/stable-diffusion-v1-5-inpainting';
const isFlux2 = (model: string): boolean => model.startsWith('@cf/black-forest-labs/flux-2-');
const isByteArray = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && value.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255);

/**
 * What is wrong with a run request, by the model's documented input: FLUX.2 takes a multipart form whose images are
 * files named input_image_0..3 (Cloudflare's FLUX.2 changelogs); SD 1.5 img2img and inpainting take JSON with `image`
 * and `mask` as arrays of bytes and `strength` in 0..1 (their schemas); no other model takes an image.
 */
async function problemWith(model: string, request: RecordedRequest): Promise<string | undefined> {
  if (isFlux2(model)) {
    if (!String(request.headers['content-type']).startsWith('multipart/form-data')) return `${model} takes multipart form data`;
    const form = await formOf(request);
    if (typeof form.get('prompt') !== 'string') return 'prompt is required';
    for (const [name, value] of form.entries()) {
      if (!name.startsWith('input_image')) continue;
      if (!/^input_image_[0-3]$/.test(name)) return `unknown field ${name}: the images are input_image_0 to input_image_3`;
      if (typeof value === 'string' || !value.type.startsWith('image/')) return `${name} must be an image file`;
    }
    return undefined;
  }
  const body = request.body;
  if (!isRecord(body) || typeof body.prompt !== 'string') return 'the body must be a JSON object with a prompt';
  const takesImage = model === SD15_IMG2IMG || model === SD15_INPAINTING;
  for (const name of ['image', 'mask'] as const) {
    if (!(name in body)) continue;
    if (!takesImage || (name === 'mask' && model !== SD15_INPAINTING)) return `${model} takes no ${name}`;
    if (!isByteArray(body[name])) return `${name} must be an array of integers from 0 to 255`;
  }
  if ('strength' in body && !(typeof body.strength === 'number' && body.strength >= 0 && body.strength <= 1)) return 'strength must be a number from 0 to 1';
  return undefined;
}

/**
 * Workers AI's REST API: a base64 JPEG in JSON (what FLUX sends) or the format given, and the raw PNG that Stable
 * Diffusion 1.5 img2img and inpainting answer. A request its model would not take gets Cloudflare's 400 envelope
 * (5004, invalid data), so a wrong shape fails loudly.
 */
export function workersAiFlow(images: SampleImages, answer?: ImageFormat): Responder {
  const image = images[answer ?? 'jpeg'].toString('base64');
  return async (request, response) => {
    // The account's models (GET .../ai/models/search), for `imagegate models --check`.
    if (request.method === 'GET' && /^\/client\/v4\/accounts\/[^/]+\/ai\/models\/search/.test(request.path)) {
      return sendJson(response, 200, {
        result: [{ name: '@cf/black-forest-labs/flux-2-dev', task: { name: 'Text-to-Image' } }],
        success: true,
        errors: [],
        messages: [],
      });
    }
    const run = /^\/client\/v4\/accounts\/[^/]+\/ai\/run\/(.+)$/.exec(request.path);
    if (request.method !== 'POST' || run?.[1] === undefined) {
      return sendJson(response, 404, { success: false, errors: [{ code: 7000, message: 'No route for that URI' }] });
    }
    const model = run[1];
    const problem = await problemWith(model, request);
    if (problem !== undefined)
      return sendJson(response, 400, { success: false, errors: [{ code: 5004, message: `Invalid data: ${problem}` }], messages: [], result: null });
    if (model === SD15_IMG2IMG || model === SD15_INPAINTING) return sendBytes(response, 200, MIME[answer ?? 'png'], images[answer ?? 'png']);
    sendJson(response, 200, { result: { image }, success: true, errors: [], messages: [] });
  };
}

/** Workers AI on loopback, under the real API's `/client/v4` prefix. */
export async function startWorkersAiFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const server = await startLoopbackServer(workersAiFlow(await sampleImages(), options.answer));
  return { baseUrl: `${server.origin}/client/v4`, server, close: () => server.close() };
}
