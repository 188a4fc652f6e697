import type { TypedResponse } from 'hono';
import type { Deps } from '../../../domain/context.js';
import { invalidParameter } from '../../../domain/errors.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';

/**
 * The most pixels (n × width × height) one `b64_json` request may ask for: 16,777,216, which is OpenAI's own
 * largest (10 images at 1536x1024) or four at 2048x2048. Each answer holds every PNG twice, as stored and as
 * base64; ten 2048² images were 36 MB of base64 per request and a gigabyte of memory for four requests.
 */
export const MAX_B64_PIXELS_PER_REQUEST = 16_777_216;

/**
 * Refuses a `b64_json` request whose images would pass the cap, before anything is made or charged.
 * `size` absent or `auto` is the model's default size; an unknown model is left to generateImage's own refusal.
 */
export function checkB64Pixels(n: number, size: { width?: number; height?: number }, model: CatalogEntry | undefined): void {
  if (model === undefined) return;
  const width = size.width ?? model.default_width;
  const height = size.height ?? model.default_height;
  const pixels = n * width * height;
  if (pixels <= MAX_B64_PIXELS_PER_REQUEST) return;
  const fits = Math.max(1, Math.floor(MAX_B64_PIXELS_PER_REQUEST / (width * height)));
  throw invalidParameter(
    'n',
    `response_format b64_json answers at most ${MAX_B64_PIXELS_PER_REQUEST.toLocaleString('en-US')} pixels per request (n × width × height); ` +
      `this asks for ${pixels.toLocaleString('en-US')} (${n} × ${width}x${height}). Send n of ${fits} or less, a smaller size, ` +
      'or response_format url (no limit: each image is fetched from its URL)',
  );
}

const encoder = new TextEncoder();

/**
 * The JSON answer of a `b64_json` request, as chunks of bytes: the base64 of every image (in its stored format)
 * is made in the CPU pool (ImageCodec.base64) as ASCII bytes and written out as it is. Nothing builds or
 * stringifies a string of tens of megabytes on the event loop, which is what stalled /health for seconds. Base64
 * needs no JSON escaping. `head` is the rest of the answer (`created`, `output_format`, ...), written before `data`.
 * Every image is read and encoded before the first byte is sent, so a missing object is still a clean 500.
 */
export async function b64Answer(
  deps: Pick<Deps, 'blobs' | 'codec'>,
  head: { created: number },
  images: ImageRecord[],
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const encoded = await Promise.all(images.map((image) => imageBase64(deps, image, signal)));
  // The head's JSON without its closing brace, so `data` follows its fields.
  const chunks: Uint8Array[] = [encoder.encode(`${JSON.stringify(head).slice(0, -1)},"data":[`)];
  encoded.forEach((b64, index) => chunks.push(encoder.encode(`${index === 0 ? '' : ','}{"b64_json":"`), b64, encoder.encode('"}')));
  chunks.push(encoder.encode(']}'));
  // Pulled one chunk at a time, so each is let go once the socket has taken it.
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

export async function imageBase64(deps: Pick<Deps, 'blobs' | 'codec'>, image: ImageRecord, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const blob = await deps.blobs.get(image.r2_key);
  if (blob === undefined) throw new Error(`image ${image.id} was recorded but its object ${image.r2_key} is missing`);
  return deps.codec.base64(blob.bytes, { signal });
}

/**
 * zod-openapi lets a route with a JSON schema answer only through c.json; this answer is that same JSON
 * (OpenAiImagesResponse), written in chunks. The typed response's extra fields exist only for the type checker.
 */
export function streamedJson<T>(response: Response): TypedResponse<T, 200, 'json'> {
  return response as unknown as TypedResponse<T, 200, 'json'>;
}
