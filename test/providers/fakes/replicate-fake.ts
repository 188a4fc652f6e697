import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../../../src/adapters/providers/http-support.js';
import { formOf, sendBytes, sendJson, startLoopbackServer, type LoopbackServer, type RecordedRequest, type Responder } from '../loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from './sample-images.js';

/** The host the adapter called, so answers name URLs on this same fake (also behind a proxy that rewrites Host). */
const origin = (headers: IncomingHttpHeaders) => `http://${String(headers.host)}`;

export function prediction(headers: IncomingHttpHeaders, id: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    model: 'black-forest-labs/flux-schnell',
    version: 'hidden',
    input: {},
    logs: '',
    output: null,
    error: null,
    status,
    created_at: '2026-11-23T10:00:00.000Z',
    urls: { get: `${origin(headers)}/v1/predictions/${id}`, cancel: `${origin(headers)}/v1/predictions/${id}/cancel`, web: `https://replicate.com/p/${id}` },
    ...extra,
  };
}

/** A file input as Replicate takes it: a data URI of an image, or a URL (an uploaded file's, here). */
const isFileInput = (value: unknown): boolean => typeof value === 'string' && (/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/.test(value) || /^https?:\/\//.test(value));

/**
 * Why Replicate would refuse these input images (422, as its input validation answers): FLUX.1 Kontext takes one
 * `input_image`, FLUX.2 [pro] an `input_images` list of at most 8 (their API pages' schemas); other models none.
 */
function inputImageProblem(model: string, input: Record<string, unknown>): string | undefined {
  const kontext = model.startsWith('black-forest-labs/flux-kontext-');
  const flux2 = model.startsWith('black-forest-labs/flux-2-');
  if ('input_image' in input && !(kontext && isFileInput(input.input_image))) return kontext ? 'input.input_image: Does not match format uri' : `input.input_image: ${model} takes no input_image`;
  if ('input_images' in input) {
    const list = input.input_images;
    if (!flux2) return `input.input_images: ${model} takes no input_images`;
    if (!Array.isArray(list) || list.length > 8 || !list.every(isFileInput)) return 'input.input_images: must be a list of at most 8 file URIs';
  }
  return undefined;
}

/** An upload to Replicate's file store (POST /v1/files, multipart `content`), answered with the file's URLs. */
async function fileCreated(request: RecordedRequest, id: string): Promise<Record<string, unknown> | undefined> {
  const content = (await formOf(request)).get('content');
  if (!(content instanceof File)) return undefined;
  const url = `${origin(request.headers)}/v1/files/${id}`;
  return { id, name: content.name, content_type: content.type, size: content.size, etag: id, checksums: {}, metadata: {}, created_at: '2026-11-23T10:00:00.000Z', expires_at: '2026-11-24T10:00:00.000Z', urls: { get: url } };
}

/**
 * Replicate's documented flow: the create answers 201 still `processing` (as when `Prefer: wait` runs out),
 * the first status check answers `succeeded` with an output URL, and the file is served in the format asked.
 */
export function replicateFlow(images: SampleImages, answer?: ImageFormat): Responder {
  const formats = new Map<string, string>();
  let next = 0;
  let files = 0;
  return async (request: RecordedRequest, response) => {
    const { method, path, headers } = request;
    if (method === 'POST' && path === '/v1/files') {
      const file = await fileCreated(request, `file${(files += 1)}`);
      return file === undefined ? sendJson(response, 400, { title: 'Bad request', detail: 'content is required', status: 400 }) : sendJson(response, 201, file);
    }
    const model = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(path)?.[1];
    if (method === 'POST' && model !== undefined) {
      const id = `pred${(next += 1)}`;
      const input = isRecord(request.body) && isRecord(request.body.input) ? request.body.input : {};
      const problem = inputImageProblem(model, input);
      if (problem !== undefined) return sendJson(response, 422, { title: 'Input validation failed', detail: `- ${problem}\n`, status: 422 });
      formats.set(id, String(input.output_format ?? 'webp'));
      return sendJson(response, 201, prediction(headers, id, 'processing', { input }));
    }
    const status = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (method === 'GET' && status?.[1] !== undefined) {
      const format = formats.get(status[1]) ?? 'webp';
      return sendJson(response, 200, prediction(headers, status[1], 'succeeded', { output: [`${origin(headers)}/files/${status[1]}/out-0.${format}`], metrics: { predict_time: 0.8, image_count: 1 } }));
    }
    const file = /^\/files\/[^/]+\/out-0\.(png|webp|jpg)$/.exec(path);
    if (method === 'GET' && file?.[1] !== undefined) {
      const format: ImageFormat = answer ?? (file[1] === 'jpg' ? 'jpeg' : file[1] === 'png' ? 'png' : 'webp');
      return sendBytes(response, 200, MIME[format], images[format]);
    }
    if (method === 'POST' && /^\/v1\/predictions\/[^/]+\/cancel$/.test(path)) return sendJson(response, 200, prediction(headers, 'x', 'canceled'));
    // The token's account (GET /v1/account), for `imagegate models --check`.
    if (method === 'GET' && path === '/v1/account') return sendJson(response, 200, { type: 'organization', username: 'acme', name: 'Acme', github_url: null });
    return sendJson(response, 404, { title: 'Not found', detail: `no route for ${method} ${path}`, status: 404 });
  };
}

/** Creates that reached the fake: each is a prediction Replicate bills for. */
export const replicateCreations = (server: LoopbackServer): number => server.requests.filter((r) => r.method === 'POST' && /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(r.path)).length;

export async function startReplicateFake(options: FakeOptions = {}): Promise<{ baseUrl: string; server: LoopbackServer; creations: () => number; close(): Promise<void> }> {
  const server = await startLoopbackServer(replicateFlow(await sampleImages(), options.answer));
  return { baseUrl: server.origin, server, creations: () => replicateCreations(server), close: () => server.close() };
}
