import { readImageHeader } from '../../../domain/inputs/image-header.js';
import {
  multipartOf,
  sendBytes,
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
  type ReceivedForm,
  type Responder,
} from '../../../test-support/loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

const ROUTES = new Set(['generate/core', 'generate/ultra', 'generate/sd3', 'edit/inpaint']);
/** The seed the fake "picks" when asked for seed 0. */
export const STABILITY_RANDOM_SEED = 3_141_592_653;

/** What a form lacks for its route, as Stability's API reference requires it (see stability-request.ts); none when complete. */
function missing(route: string, form: ReceivedForm): string | undefined {
  if ((form.fields.prompt ?? '') === '') return 'prompt: required';
  const [image] = form.files.image ?? [];
  if (image !== undefined && readImageHeader(image.bytes) === undefined) return 'image: unsupported format';
  const [mask] = form.files.mask ?? [];
  if (mask !== undefined && readImageHeader(mask.bytes) === undefined) return 'mask: unsupported format';
  if (route === 'edit/inpaint') return image === undefined ? 'image: required' : undefined;
  const imageToImage = route === 'generate/sd3' ? form.fields.mode === 'image-to-image' : image !== undefined;
  if (route === 'generate/sd3' && (image !== undefined) !== imageToImage) return 'image: only valid (and then required) with mode=image-to-image';
  if (imageToImage && image === undefined) return 'image: required for image-to-image';
  if (imageToImage && form.fields.strength === undefined) return 'strength: required when image is provided';
  return undefined;
}

/**
 * Stability's documented success with `Accept: image/*`: the image bytes in the asked `output_format`, with
 * `finish-reason: SUCCESS` and the `seed` used, for the generate services and inpainting. Every form is parsed for
 * real and pushed to `received`; one lacking what its route requires gets the documented 400 body.
 */
export function stabilitySuccess(images: SampleImages, answer?: ImageFormat, received: ReceivedForm[] = []): Responder {
  return async (request, response) => {
    // The account's credit balance (GET /v1/user/balance), for `imagegate models --check`.
    if (request.method === 'GET' && request.path === '/v1/user/balance') return sendJson(response, 200, { credits: 42.5 });
    const route = /^\/v2beta\/stable-image\/([a-z0-9/-]+)$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || route === undefined || !ROUTES.has(route)) {
      return sendJson(response, 404, { id: 'e404', name: 'not_found', errors: [`no route for ${request.method} ${request.path}`] });
    }
    const form = await multipartOf(request);
    received.push(form);
    const problem = missing(route, form);
    if (problem !== undefined) return sendJson(response, 400, { id: 'e400', name: 'bad_request', errors: [problem] });
    const asked = form.fields.output_format ?? 'png';
    const format: ImageFormat = answer ?? (asked === 'jpeg' || asked === 'webp' ? asked : 'png');
    // Seed 0 (or none) means "random": Stability picks one and reports it in the `seed` header.
    const askedSeed = Number(form.fields.seed ?? 0);
    const seed = askedSeed === 0 ? STABILITY_RANDOM_SEED : askedSeed;
    sendBytes(response, 200, MIME[format], images[format], { 'finish-reason': 'SUCCESS', seed: String(seed), 'x-request-id': 'req-1' });
  };
}

export async function startStabilityFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const server = await startLoopbackServer(stabilitySuccess(await sampleImages(), options.answer));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
