import type { IncomingHttpHeaders } from 'node:http';
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
const isFileInput = (value: unknown): boolean =>
  typeof value === 'string' && (/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/.test(value) || /^https?:\/\//.test(value));

/**
 * Why Replicate would refuse these input images (422, as its input validation answers): FLUX.1 Kontext takes one
 * `input_image`, FLUX.2 [pro] an `input_images` list of at most 8 (their API pages' schemas); other models none.
 */
function inputImageProblem(model: string, input: Record<string, unknown>): string | undefined {
  const kontext = model.startsWith('black-forest-labs/flux-kontext-');
  const flux2 = model.startsWith('black-forest-labs/flux-2-');
  if ('input_image' in input && !(kontext && isFileInput(input.input_image)))
    return kontext ? 'input.input_image: Does not match format uri' : `input.input_image: ${model} takes no input_image`;
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
  return {
    id,
    name: content.name,
    content_type: content.type,
    size: content.size,
    etag: id,
    checksums: {},
    metadata: {},
    created_at: '2026-11-23T10:00:00.000Z',
    expires_at: '2026-11-24T10:00:00.000Z',
    urls: { get: url },
  };
}

/**
 * How a prediction runs when a test wants to see it run (its progress). Without it, the first status check finds it
 * `succeeded`.
 */
export interface ReplicateRun {
  /** Status checks that find it `starting` first, a worker booting for it (a cold start). */
  booting?: number;
  /** Then `processing` over this many denoising steps, one more logged per status check, before `succeeded`. */
  steps: number;
  /** While this answers true for the step reached, the prediction stays there (a slow GPU, for a test to look meanwhile). */
  held?: (step: number) => boolean;
}

/**
 * The `logs` of a cog-flux prediction so far, as Replicate returns them: the model's own lines, then tqdm's bar for
 * each denoising step done (diffusers' pipeline loop), one per line as the API shows them, e.g.
 * ` 25%|██▌       | 1/4 [00:00<00:00,  3.62it/s]` (replicate-javascript lib/util.js parses exactly these).
 */
export function predictionLogs(seed: unknown, done: number, steps: number): string {
  const lines = [`Using seed: ${String(seed)}`, 'running quantized prediction'];
  for (let step = 0; step <= done; step += 1) lines.push(`${tqdmBar(step, steps)} ${step}/${steps} [00:0${step}<00:00,  3.62it/s]`);
  return `${lines.join('\n')}\n`;
}

/** tqdm's default bar: the percentage right-aligned, then ten cells of full and partial blocks. */
function tqdmBar(step: number, steps: number): string {
  const cells = (step / steps) * 10;
  const full = Math.floor(cells);
  const partial = full < 10 ? (' ▏▎▍▌▋▊▉'[Math.floor((cells - full) * 8)] ?? ' ') : '';
  const bar = `${'█'.repeat(full)}${partial}`.padEnd(10, ' ');
  return `${String(Math.floor((step / steps) * 100)).padStart(3, ' ')}%|${bar}|`;
}

/**
 * Replicate's documented flow: the create answers 201 still `processing` (as when `Prefer: wait` runs out),
 * the first status check answers `succeeded` with an output URL, and the file is served in the format asked.
 * With `run`, status checks first find it `starting`, then `processing` step by step with its logs.
 */
export function replicateFlow(images: SampleImages, answer?: ImageFormat, run?: ReplicateRun): Responder {
  const formats = new Map<string, string>();
  const runs = new Map<string, { checks: number; step: number; seed: unknown }>();
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
      if (run === undefined) return sendJson(response, 201, prediction(headers, id, 'processing', { input }));
      runs.set(id, { checks: 0, step: 0, seed: input.seed });
      const booting = (run.booting ?? 0) > 0;
      return sendJson(
        response,
        201,
        prediction(headers, id, booting ? 'starting' : 'processing', { input, logs: booting ? '' : predictionLogs(input.seed, 0, run.steps) }),
      );
    }
    const status = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    const running = status?.[1] === undefined || run === undefined ? undefined : runs.get(status[1]);
    if (method === 'GET' && status?.[1] !== undefined && running !== undefined && run !== undefined) {
      running.checks += 1;
      if (running.checks <= (run.booting ?? 0)) return sendJson(response, 200, prediction(headers, status[1], 'starting'));
      if (running.step < run.steps || run.held?.(running.step) === true) {
        if (run.held?.(running.step) !== true) running.step += 1;
        return sendJson(response, 200, prediction(headers, status[1], 'processing', { logs: predictionLogs(running.seed, running.step, run.steps) }));
      }
    }
    if (method === 'GET' && status?.[1] !== undefined) {
      const format = formats.get(status[1]) ?? 'webp';
      return sendJson(
        response,
        200,
        prediction(headers, status[1], 'succeeded', {
          output: [`${origin(headers)}/files/${status[1]}/out-0.${format}`],
          metrics: { predict_time: 0.8, image_count: 1 },
        }),
      );
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
export const replicateCreations = (server: LoopbackServer): number =>
  server.requests.filter((r) => r.method === 'POST' && /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(r.path)).length;

export async function startReplicateFake(
  options: FakeOptions & { run?: ReplicateRun } = {},
): Promise<{ baseUrl: string; server: LoopbackServer; creations: () => number; close(): Promise<void> }> {
  const server = await startLoopbackServer(replicateFlow(await sampleImages(), options.answer, options.run));
  return { baseUrl: server.origin, server, creations: () => replicateCreations(server), close: () => server.close() };
}
