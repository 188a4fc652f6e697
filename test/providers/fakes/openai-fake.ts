import { isRecord } from '../../../src/adapters/providers/http-support.js';
import { sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../loopback-server.js';
import { sampleImages, type FakeOptions } from './sample-images.js';

/**
 * Image output tokens the fake bills at medium quality, by size: the figures of OpenAI's calculator
 * (1024x1024 = 1756, 1536x1024 = 1372); any other size bills as 1024x1024.
 */
export const FAKE_IMAGE_TOKENS: Readonly<Record<string, number>> = { '1024x1024': 1756, '1536x1024': 1372, '1024x1536': 1372 };
/** Text tokens the fake bills for any prompt. */
export const FAKE_TEXT_TOKENS = 12;

/**
 * OpenAI's documented success (openai-node src/resources/images.ts, ImagesResponse): `{ created, data: [{ b64_json }],
 * usage }` with the tokens billed, and `GET /v1/models/{model}` (models.retrieve) for `imagegate models --check`.
 */
export function openAiSuccess(imageBase64: string): Responder {
  return (request, response) => {
    const model = /^\/v1\/models\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && model !== undefined) return sendJson(response, 200, { id: model, object: 'model', created: 1_776_729_600, owned_by: 'system' });
    if (request.method !== 'POST' || request.path !== '/v1/images/generations') {
      return sendJson(response, 404, { error: { message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error', param: null, code: null } });
    }
    const size = isRecord(request.body) ? String(request.body.size) : '';
    const imageTokens = FAKE_IMAGE_TOKENS[size] ?? 1756;
    sendJson(response, 200, {
      created: 1_700_000_000,
      data: [{ b64_json: imageBase64 }],
      usage: {
        total_tokens: FAKE_TEXT_TOKENS + imageTokens,
        input_tokens: FAKE_TEXT_TOKENS,
        output_tokens: imageTokens,
        input_tokens_details: { text_tokens: FAKE_TEXT_TOKENS, image_tokens: 0 },
        output_tokens_details: { image_tokens: imageTokens, text_tokens: 0 },
      },
    });
  };
}

/** OpenAI Images on loopback, answering every generation with a base64 PNG (or the format given). */
export async function startOpenAiFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const images = await sampleImages();
  const server = await startLoopbackServer(openAiSuccess(images[options.answer ?? 'png'].toString('base64')));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
