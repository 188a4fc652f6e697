import { isRecord } from '../http-support.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../../../test-support/loopback-server.js';
import { sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

/**
 * AUTOMATIC1111's txt2img as its API answers it: `{ images: [<base64 PNG>], parameters, info }` where `info`
 * is itself a JSON string; a body of the wrong shape is FastAPI's 422.
 */
export function a1111Success(images: SampleImages, answer: ImageFormat = 'png'): Responder {
  return (request, response) => {
    // The checkpoint list (GET /sdapi/v1/sd-models), for `imagegate models --check`.
    if (request.method === 'GET' && request.path === '/sdapi/v1/sd-models')
      return sendJson(response, 200, [{ title: 'v1-5-pruned-emaonly.safetensors [6ce0161689]', model_name: 'v1-5-pruned-emaonly' }]);
    if (request.method !== 'POST' || request.path !== '/sdapi/v1/txt2img') return sendJson(response, 404, { detail: 'Not Found' });
    if (!isRecord(request.body)) return sendJson(response, 422, { detail: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }] });
    const seed = typeof request.body.seed === 'number' ? request.body.seed : 123456;
    sendJson(response, 200, {
      images: [images[answer].toString('base64')],
      parameters: request.body,
      info: JSON.stringify({
        prompt: request.body.prompt,
        seed,
        all_seeds: [seed],
        width: request.body.width ?? 512,
        height: request.body.height ?? 512,
        sd_model_name: 'v1-5-pruned-emaonly',
      }),
    });
  };
}

export async function startA1111Fake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const server = await startLoopbackServer(a1111Success(await sampleImages(), options.answer));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
