import { formOf, sendBytes, sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from './sample-images.js';

const SERVICES = new Set(['core', 'ultra', 'sd3']);
/** The seed the fake "picks" when asked for seed 0. */
export const STABILITY_RANDOM_SEED = 3_141_592_653;

/**
 * Stability's documented success with `Accept: image/*`: the image bytes in the asked `output_format`,
 * with `finish-reason: SUCCESS` and the `seed` used; a missing prompt is the documented 400 body.
 */
export function stabilitySuccess(images: SampleImages, answer?: ImageFormat): Responder {
  return async (request, response) => {
    // The account's credit balance (GET /v1/user/balance), for `imagegate models --check`.
    if (request.method === 'GET' && request.path === '/v1/user/balance') return sendJson(response, 200, { credits: 42.5 });
    const service = /^\/v2beta\/stable-image\/generate\/([a-z0-9]+)$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || service === undefined || !SERVICES.has(service)) {
      return sendJson(response, 404, { id: 'e404', name: 'not_found', errors: [`no route for ${request.method} ${request.path}`] });
    }
    const form = await formOf(request);
    if (typeof form.get('prompt') !== 'string') return sendJson(response, 400, { id: 'e400', name: 'bad_request', errors: ['prompt: required'] });
    const asked = String(form.get('output_format') ?? 'png');
    const format: ImageFormat = answer ?? (asked === 'jpeg' || asked === 'webp' ? asked : 'png');
    // Seed 0 (or none) means "random": Stability picks one and reports it in the `seed` header.
    const askedSeed = Number(form.get('seed') ?? 0);
    const seed = askedSeed === 0 ? STABILITY_RANDOM_SEED : askedSeed;
    sendBytes(response, 200, MIME[format], images[format], { 'finish-reason': 'SUCCESS', seed: String(seed), 'x-request-id': 'req-1' });
  };
}

export async function startStabilityFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const server = await startLoopbackServer(stabilitySuccess(await sampleImages(), options.answer));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
