import type { ServerResponse } from 'node:http';
import { isRecord } from '../http-support.js';
import { readImageHeader } from '../../../domain/inputs/image-header.js';
import { estimateImageTokens } from '../../../domain/models/pricing.js';
import type { ImageQualityTier } from '../../../domain/models/types.js';
import {
  multipartOf,
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
  type ReceivedForm,
  type RecordedRequest,
  type Responder,
} from '../../../test-support/loopback-server.js';
import { sampleImages, type FakeOptions } from '../../../test-support/fake-images.js';

/** Text tokens the fake bills for any prompt. */
export const FAKE_TEXT_TOKENS = 12;
/** Image input tokens the fake bills for each input image of an edit (the mask is not counted). */
export const FAKE_INPUT_IMAGE_TOKENS = 323;
/** OpenAI's documented limit for the GPT image models' edits (ImageEditParams.image: "up to 16 images"). */
const MAX_EDIT_IMAGES = 16;

/**
 * Image output tokens the fake bills: the figures of OpenAI's calculator for the size and quality asked
 * (estimateImageTokens; medium 1024x1024 = 1756, 1536x1024 = 1372), `auto` or none billing as medium.
 */
export function fakeImageTokens(size: string, quality: string | undefined): number {
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  const tier: ImageQualityTier = quality === 'low' || quality === 'high' ? quality : 'medium';
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? estimateImageTokens(tier, width, height) : 1756;
}

const invalid = (response: ServerResponse, message: string, param: string | null): void =>
  sendJson(response, 400, { error: { message, type: 'invalid_request_error', param, code: null } });

const usageOf = (outputTokens: number, inputImageTokens: number) => ({
  total_tokens: FAKE_TEXT_TOKENS + inputImageTokens + outputTokens,
  input_tokens: FAKE_TEXT_TOKENS + inputImageTokens,
  output_tokens: outputTokens,
  input_tokens_details: { text_tokens: FAKE_TEXT_TOKENS, image_tokens: inputImageTokens },
  output_tokens_details: { image_tokens: outputTokens, text_tokens: 0 },
});

/** What was asked of a streamed answer; absent when the request did not ask for `stream: true`. */
interface StreamAsk {
  kind: 'image_generation' | 'image_edit';
  partials: number;
  size: string;
  quality: string;
}

/**
 * OpenAI's ImagesResponse: the image and the tokens billed, text and image input detailed. Asked with `stream: true`,
 * the same answer as Server-Sent Events (openai-node resources/images.d.ts ImageGenStreamEvent / ImageEditStreamEvent,
 * read by core/streaming.js): `partial_images` `<kind>.partial_image` events, indexes from 0, then one
 * `<kind>.completed` with the image and its usage.
 */
function answer(response: ServerResponse, imageBase64: string, outputTokens: number, inputImageTokens: number, stream?: StreamAsk): void {
  if (stream === undefined) {
    sendJson(response, 200, { created: 1_700_000_000, data: [{ b64_json: imageBase64 }], usage: usageOf(outputTokens, inputImageTokens) });
    return;
  }
  const common = { created_at: 1_700_000_000, background: 'auto', output_format: 'png', quality: stream.quality, size: stream.size };
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (let index = 0; index < stream.partials; index += 1) {
    response.write(
      `event: ${stream.kind}.partial_image\ndata: ${JSON.stringify({ type: `${stream.kind}.partial_image`, ...common, partial_image_index: index, b64_json: imageBase64 })}\n\n`,
    );
  }
  response.end(
    `event: ${stream.kind}.completed\ndata: ${JSON.stringify({ type: `${stream.kind}.completed`, ...common, b64_json: imageBase64, usage: usageOf(outputTokens, inputImageTokens) })}\n\n`,
  );
}

/** `stream` and `partial_images` as either endpoint received them (JSON values, or a form's text fields). */
function streamAsk(kind: StreamAsk['kind'], fields: Record<string, unknown>): StreamAsk | undefined {
  if (fields.stream !== true && fields.stream !== 'true') return undefined;
  const partials = Number(fields.partial_images ?? 0);
  return {
    kind,
    partials: Number.isInteger(partials) ? Math.min(3, Math.max(0, partials)) : 0,
    size: String(fields.size ?? 'auto'),
    quality: String(fields.quality ?? 'auto'),
  };
}

/**
 * `POST /v1/images/edits` as OpenAI takes it (openai-node ImageEditParams): multipart, a prompt, one `image` or up to
 * 16 `image[]` files (PNG, JPEG or WebP), an optional `mask` PNG the size of the first image. The form is parsed for
 * real and pushed to `received`; the answer has the shape of a generation's, with input image tokens.
 */
async function edit(request: RecordedRequest, response: ServerResponse, imageBase64: string, received: ReceivedForm[]): Promise<void> {
  if (!String(request.headers['content-type']).startsWith('multipart/form-data')) return invalid(response, 'Expected multipart/form-data.', null);
  const form = await multipartOf(request);
  received.push(form);
  if ((form.fields.prompt ?? '') === '') return invalid(response, "Missing required parameter: 'prompt'.", 'prompt');
  const images = [...(form.files.image ?? []), ...(form.files['image[]'] ?? [])];
  if (images.length === 0) return invalid(response, "Missing required parameter: 'image'.", 'image');
  if (images.length > MAX_EDIT_IMAGES) return invalid(response, `Too many images: at most ${MAX_EDIT_IMAGES}.`, 'image');
  const headers = images.map((image) => readImageHeader(image.bytes));
  if (headers.some((header) => header === undefined)) return invalid(response, 'Invalid image file: only png, jpeg and webp are supported.', 'image');
  const [mask] = form.files.mask ?? [];
  if (mask !== undefined) {
    const header = readImageHeader(mask.bytes);
    if (header?.contentType !== 'image/png') return invalid(response, 'Invalid mask: it must be a PNG.', 'mask');
    if (header.width !== headers[0]?.width || header.height !== headers[0]?.height)
      return invalid(response, 'The mask must be the size of the first image.', 'mask');
  }
  answer(
    response,
    imageBase64,
    fakeImageTokens(form.fields.size ?? '', form.fields.quality),
    images.length * FAKE_INPUT_IMAGE_TOKENS,
    streamAsk('image_edit', form.fields),
  );
}

/**
 * OpenAI's documented success (openai-node src/resources/images.ts, ImagesResponse): `{ created, data: [{ b64_json }],
 * usage }` with the tokens billed, for generations (JSON) and edits (multipart, recorded in `received`), and
 * `GET /v1/models/{model}` (models.retrieve) for `imagegate models --check`.
 */
export function openAiSuccess(imageBase64: string, received: ReceivedForm[] = []): Responder {
  return async (request, response) => {
    const model = /^\/v1\/models\/([^/]+)$/.exec(request.path)?.[1];
    if (request.method === 'GET' && model !== undefined)
      return sendJson(response, 200, { id: model, object: 'model', created: 1_776_729_600, owned_by: 'system' });
    if (request.method === 'POST' && request.path === '/v1/images/edits') return edit(request, response, imageBase64, received);
    if (request.method !== 'POST' || request.path !== '/v1/images/generations') {
      return sendJson(response, 404, {
        error: { message: `Invalid URL (${request.method} ${request.path})`, type: 'invalid_request_error', param: null, code: null },
      });
    }
    const body = isRecord(request.body) ? request.body : {};
    answer(
      response,
      imageBase64,
      fakeImageTokens(String(body.size), typeof body.quality === 'string' ? body.quality : undefined),
      0,
      streamAsk('image_generation', body),
    );
  };
}

/** OpenAI Images on loopback, answering every generation and edit with a base64 PNG (or the format given). */
export async function startOpenAiFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; close(): Promise<void> }> {
  const images = await sampleImages();
  const server = await startLoopbackServer(openAiSuccess(images[options.answer ?? 'png'].toString('base64')));
  return { baseUrl: server.origin, server, close: () => server.close() };
}
