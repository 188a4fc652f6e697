import type { IncomingHttpHeaders } from 'node:http';
import { readImageHeader } from '../../../domain/inputs/image-header.js';
import { isRecord } from '../http-support.js';
import { sendBytes, sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../../../test-support/loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

/*
 * Black Forest Labs' API on loopback, as its API reference documents the wire (the OpenAPI it embeds,
 * https://api.bfl.ai/openapi.json, read 2026-11-27 on docs.bfl.ai / docs.bfl.ml):
 * - `POST /v1/{model}` with `x-key`, JSON in, answered `{ id, polling_url, cost, input_mp, output_mp }` (AsyncResponse;
 *   `cost` in credits of $0.01, BFL's own charge; FLUX.2 rates and rounding as cited in bfl-models.ts). A bad body is
 *   FastAPI's 422 `{ detail: [{ loc, msg, type }] }`; a missing key FastAPI's APIKeyHeader 403 "Not authenticated".
 * - The `polling_url` names the region that took the task (`https://api.eu2.bfl.ai/v1/get_result?id=...` in BFL's
 *   answers, help.bfl.ai "Which API endpoint should I use?"). On loopback the region is a path, `/eu2/v1/get_result`;
 *   the global `/v1/get_result` does not find regional tasks (`Task not found`), so an adapter that rebuilds the URL
 *   instead of following it fails here as BFL says it may.
 * - `GET polling_url` answers ResultResponse `{ id, status, result, progress, details, preview }`: `Pending`, then
 *   `Ready` with `result: { sample, prompt, seed, start_time, end_time, duration }`, or `Error` (`error`, as BFL's
 *   skills/bfl-api/references/endpoints.md shows it), `Request Moderated` / `Content Moderated` (`result: null`, the
 *   reasons in `details`; their exact shape is not documented), `Task not found`.
 * - `result.sample` is a signed delivery URL ("expires after 10 minutes", under `delivery.*.bfl.ai`): here
 *   `/delivery/eu2/{id}/sample.{ext}?se=...&sig=...`, refused without its signature (403), never needing the key.
 * - `GET /v1/credits` answers `{ credits }` (CreditsResponse).
 * - Failures before acceptance on request (`failSubmits`): 429 with `Retry-After` (BFL's concurrency limit; body as
 *   BFL's skills/bfl-api/references/rate-limiting.md shows it), 402 (insufficient credits; exact body undocumented),
 *   5xx. None of them creates a task.
 */

/** How each task ends, after `pending` polls answered Pending (default: 1 Pending, then Ready). */
export interface BflRun {
  pending?: number;
  end?: 'Ready' | 'Error' | 'Request Moderated' | 'Content Moderated' | 'Task not found';
}

/** A submit answered with a failure instead of a task. */
export interface SubmitFailure {
  status: number;
  retryAfter?: string;
}

export interface BflFakeOptions extends FakeOptions {
  run?: BflRun;
  /** Consumed in order, one per submit, before any task is made. */
  failSubmits?: SubmitFailure[];
}

/** Credits per megapixel: the first one, each further one and each input one (FLUX.2); a flat price (Kontext). */
const RATES: Readonly<Record<string, { first: number; more: number } | { flat: number }>> = {
  'flux-2-pro': { first: 3, more: 1.5 },
  'flux-2-max': { first: 7, more: 3 },
  'flux-2-flex': { first: 5, more: 5 },
  'flux-kontext-pro': { flat: 4 },
  'flux-kontext-max': { flat: 8 },
};

const MEGAPIXEL = 1_048_576;
const SIGNATURE = 'c2lnbmVkLWJ5LWJmbA';
const origin = (headers: IncomingHttpHeaders) => `http://${String(headers.host)}`;
const mp = (pixels: number) => Math.round((pixels / MEGAPIXEL) * 100) / 100;
const validation = (loc: (string | number)[], msg: string, type: string) => ({ detail: [{ loc: ['body', ...loc], msg, type }] });

/** The input images of a body, `input_image`, `input_image_2`..., each plain base64 of a PNG, JPEG or WebP here. */
function inputImages(body: Record<string, unknown>): { sizes: { width: number; height: number }[]; problem?: string } {
  const sizes: { width: number; height: number }[] = [];
  for (let index = 1; index <= 8; index += 1) {
    const field = index === 1 ? 'input_image' : `input_image_${index}`;
    const value = body[field];
    if (value === undefined || value === null) continue;
    const header = typeof value === 'string' ? readImageHeader(Buffer.from(value, 'base64')) : undefined;
    if (header === undefined) return { sizes, problem: field };
    sizes.push({ width: header.width, height: header.height });
  }
  return { sizes };
}

interface Task {
  polls: number;
  format: ImageFormat;
  seed: number;
  prompt: string;
}

/**
 * BFL's documented flow. `answer` serves the sample in that format whatever was asked; `tasks()` counts the tasks it
 * accepted, each one BFL bills.
 */
export function bflFlow(images: SampleImages, options: BflFakeOptions = {}): Responder & { tasks(): number } {
  const tasks = new Map<string, Task>();
  const failures = [...(options.failSubmits ?? [])];
  const pending = options.run?.pending ?? 1;
  const end = options.run?.end ?? 'Ready';
  let next = 0;

  const submit: Responder = (request, response) => {
    const model = request.path.slice('/v1/'.length);
    const rates = RATES[model];
    if (rates === undefined) return sendJson(response, 404, { detail: 'Not Found' });
    const failure = failures.shift();
    if (failure !== undefined) {
      const headers: Record<string, string> = failure.retryAfter === undefined ? {} : { 'Retry-After': failure.retryAfter };
      if (failure.status === 429)
        return sendJson(response, 429, { error: 'rate_limit_exceeded', message: 'Too many concurrent requests', retry_after: 5 }, headers);
      if (failure.status === 402) return sendJson(response, 402, { detail: 'Insufficient credits' }, headers);
      return sendJson(response, failure.status, { detail: 'Internal Server Error' }, headers);
    }
    const body = isRecord(request.body) ? request.body : {};
    if (typeof body.prompt !== 'string') return sendJson(response, 422, validation(['prompt'], 'Field required', 'missing'));
    for (const side of ['width', 'height'] as const) {
      const value = body[side];
      if (value !== undefined && (typeof value !== 'number' || value < 64))
        return sendJson(response, 422, validation([side], 'Input should be greater than or equal to 64', 'greater_than_equal'));
    }
    const inputs = inputImages(body);
    if (inputs.problem !== undefined) return sendJson(response, 422, validation([inputs.problem], 'Invalid image: could not decode', 'value_error'));
    const id = `b0f1a2c3-0000-4000-8000-${String((next += 1)).padStart(12, '0')}`;
    const output = typeof body.width === 'number' && typeof body.height === 'number' ? body.width * body.height : MEGAPIXEL;
    const inputMp = inputs.sizes.reduce((sum, size) => sum + size.width * size.height, 0);
    const cost =
      'flat' in rates
        ? rates.flat
        : rates.first +
          (Math.ceil(output / MEGAPIXEL) - 1) * rates.more +
          inputs.sizes.reduce((sum, size) => sum + Math.ceil((size.width * size.height) / MEGAPIXEL) * rates.more, 0);
    tasks.set(id, {
      polls: 0,
      format: options.answer ?? (body.output_format === 'png' ? 'png' : 'jpeg'),
      // Without a seed BFL picks one.
      seed: typeof body.seed === 'number' ? body.seed : 1_234_567_890,
      prompt: body.prompt,
    });
    sendJson(response, 200, {
      id,
      polling_url: `${origin(request.headers)}/eu2/v1/get_result?id=${id}`,
      cost,
      input_mp: mp(inputMp),
      output_mp: mp(output),
    });
  };

  const poll: Responder = (request, response) => {
    const url = new URL(request.path, 'http://fake');
    const id = url.searchParams.get('id') ?? '';
    const task = url.pathname === '/eu2/v1/get_result' ? tasks.get(id) : undefined;
    const answer = (status: string, extra: Record<string, unknown> = {}) =>
      sendJson(response, 200, { id, status, result: null, progress: null, details: null, preview: null, ...extra });
    if (task === undefined) return answer('Task not found');
    task.polls += 1;
    if (task.polls <= pending) return answer('Pending', { progress: task.polls / (pending + 1) });
    if (end === 'Ready') {
      const sample = `${origin(request.headers)}/delivery/eu2/${id}/sample.${task.format}?se=2026-11-27T12%3A10%3A00Z&sig=${SIGNATURE}`;
      return answer('Ready', {
        result: { sample, prompt: task.prompt, seed: task.seed, start_time: 1_795_000_000.1, end_time: 1_795_000_004.2, duration: 4.1 },
      });
    }
    if (end === 'Error') return answer('Error', { error: 'Internal generation error' });
    if (end === 'Task not found') return answer('Task not found');
    return answer(end, { details: { 'Moderation Reasons': ['Content flagged by the safety filter'] } });
  };

  const responder: Responder = (request, response, server) => {
    const { method, path, headers } = request;
    const download = /^\/delivery\/eu2\/([^/]+)\/sample\.(png|jpeg|webp)\?(.*)$/.exec(path);
    if (method === 'GET' && download?.[2] !== undefined) {
      // Signed: the signature is the only credential, and without it the store refuses.
      if (new URLSearchParams(download[3]).get('sig') !== SIGNATURE) return sendJson(response, 403, { detail: 'Signature did not match' });
      const format = download[2] as ImageFormat;
      return sendBytes(response, 200, MIME[format], images[format]);
    }
    if (headers['x-key'] === undefined) return sendJson(response, 403, { detail: 'Not authenticated' });
    if (method === 'GET' && path === '/v1/credits') return sendJson(response, 200, { credits: 4321.5 });
    if (method === 'GET' && /^\/(eu2\/)?v1\/get_result\?/.test(path)) return poll(request, response, server);
    if (method === 'POST' && /^\/v1\/[a-z0-9.-]+$/.test(path)) return submit(request, response, server);
    return sendJson(response, 404, { detail: 'Not Found' });
  };
  return Object.assign(responder, { tasks: () => tasks.size });
}

export async function startBflFake(
  options: BflFakeOptions = {},
): Promise<{ baseUrl: string; server: LoopbackServer; creations: () => number; close(): Promise<void> }> {
  const flow = bflFlow(await sampleImages(), options);
  const server = await startLoopbackServer(flow);
  return { baseUrl: server.origin, server, creations: () => flow.tasks(), close: () => server.close() };
}
