import { sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../loopback-server.js';
import { sampleImages, type FakeOptions } from './sample-images.js';

/** OpenAI's documented success: `{ created, data: [{ b64_json }] }` (gpt-image-1 also reports token usage). */
export function openAiSuccess(imageBase64: string): Responder {
  return (request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/images/generations') {
      sendJson(response, 404, { error: { message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    sendJson(response, 200, {
      created: 1_700_000_000,
      data: [{ b64_json: imageBase64 }],
      usage: { total_tokens: 4_170, input_tokens: 10, output_tokens: 4_160, input_tokens_details: { text_tokens: 10, image_tokens: 0 } },
    });
  };
}

/** OpenAI Images on loopback, answering every generation with a base64 PNG (or the format given). */
export async function startOpenAiFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const images = await sampleImages();
  const server = await startLoopbackServer(openAiSuccess(images[options.answer ?? 'png'].toString('base64')));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
