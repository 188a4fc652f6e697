import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../http-support.js';
import { sniffImageType } from '../sniff-image-type.js';
import { sendBytes, sendJson, startLoopbackServer, type LoopbackServer, type Responder } from '../../../test-support/loopback-server.js';
import { MIME, sampleImages, type FakeOptions, type ImageFormat, type SampleImages } from '../../../test-support/fake-images.js';

const origin = (headers: IncomingHttpHeaders) => `http://${String(headers.host)}`;

/** The queue entry fal answers on submit (and its URLs live under the app, `fal-ai/flux`, not the full model path). */
export function queued(
  headers: IncomingHttpHeaders,
  id: string,
  status = 'IN_QUEUE',
  queueOrigin = origin(headers),
  app = 'fal-ai/flux',
): Record<string, unknown> {
  const at = `${queueOrigin}/${app}/requests/${id}`;
  return { status, request_id: id, response_url: at, status_url: `${at}/status`, cancel_url: `${at}/cancel`, queue_position: 0 };
}

/** How a request runs when a test wants to see it run (its progress); without it, it runs as falFlow says. */
export interface FalRun {
  /** Status checks that find it IN_QUEUE first, with this many requests ahead at the first and one fewer each time. */
  queueAhead?: number;
  /** Then IN_PROGRESS over this many denoising steps, one more logged per status check, before COMPLETED. */
  steps?: number;
}

/**
 * The logs of a running request as a status check with `?logs=1` answers them (fal-js libs/client/src/types/
 * common.ts RequestLog: `{ message, level, source, timestamp }`, all so far in each answer): what the app printed,
 * here diffusers' tqdm bar on stderr after each denoising step.
 */
function runLogs(done: number, steps: number): Record<string, unknown>[] {
  const log = (message: string) => ({ message, level: 'STDERR', source: 'USER', timestamp: '2026-11-23T10:00:00.000000' });
  const bars = Array.from({ length: done + 1 }, (_, step) =>
    log(
      `${String(Math.floor((step / steps) * 100)).padStart(3, ' ')}%|${'█'.repeat(Math.floor((step / steps) * 10)).padEnd(10, ' ')}| ${step}/${steps} [00:00<00:00,  4.10it/s]`,
    ),
  );
  return [log('Loading pipeline'), ...bars];
}

/**
 * fal's documented queue flow: submit answers IN_QUEUE, the first status check IN_PROGRESS, the next
 * COMPLETED; the result names a file on the fake, served in the asked `output_format` (fal's default is jpeg).
 * `queueOrigin` makes the submit answer name its queue URLs on another host; `run` queues and runs it step by step.
 */
export function falFlow(images: SampleImages, { answer, queueOrigin, run }: { answer?: ImageFormat; queueOrigin?: string; run?: FalRun } = {}): Responder {
  const jobs = new Map<string, { checks: number; format: ImageFormat; width: number; height: number; seed: number; app: string }>();
  let next = 0;
  return (request, response) => {
    const { method, path, headers } = request;
    // fal's platform API, for `imagegate models --check` (the price of one endpoint).
    if (method === 'GET' && path.startsWith('/v1/models/pricing')) {
      return sendJson(response, 200, {
        prices: [{ endpoint_id: 'fal-ai/flux/schnell', unit_price: 0.003, unit: 'megapixels', currency: 'USD' }],
        has_more: false,
      });
    }
    // A submission: POST /{owner}/{app}[/{more}], answered with the queue entry under /{owner}/{app}.
    const submit = /^\/([^/]+\/[^/]+)(\/[^?]*)?$/.exec(path);
    if (method === 'POST' && submit?.[1] !== undefined && !path.includes('/requests/')) {
      const input = isRecord(request.body) ? request.body : {};
      if (typeof input.prompt !== 'string')
        return sendJson(response, 422, { detail: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' }] });
      const unreadable = imageInputProblem(submit[0].slice(1), input);
      if (unreadable !== undefined) return sendJson(response, 422, { detail: [unreadable] });
      const id = `req-${(next += 1)}`;
      const size = isRecord(input.image_size) ? input.image_size : { width: 1024, height: 768 };
      // Without a seed, fal picks one and reports it.
      const seed = typeof input.seed === 'number' ? input.seed : 987654;
      jobs.set(id, {
        checks: 0,
        format: answer ?? (input.output_format === 'png' ? 'png' : 'jpeg'),
        width: Number(size.width),
        height: Number(size.height),
        seed,
        app: submit[1],
      });
      return sendJson(response, 200, { ...queued(headers, id, 'IN_QUEUE', queueOrigin, submit[1]), queue_position: run?.queueAhead ?? 0 });
    }
    const match = /^\/([^/]+\/[^/]+)\/requests\/([^/?]+)(\/status|\/cancel)?(\?.*)?$/.exec(path);
    const job = match?.[2] === undefined ? undefined : jobs.get(match[2]);
    if (match?.[2] !== undefined && job !== undefined && job.app === match[1]) {
      const id = match[2];
      if (match[3] === '/status' && method === 'GET') {
        job.checks += 1;
        const withLogs = new URLSearchParams(match[4] ?? '').get('logs') === '1';
        if (run !== undefined) return sendJson(response, 200, runStatus(headers, id, job.app, job.checks, run, withLogs));
        return sendJson(response, 200, { ...queued(headers, id, job.checks >= 2 ? 'COMPLETED' : 'IN_PROGRESS', origin(headers), job.app), logs: [] });
      }
      if (match[3] === '/cancel' && method === 'PUT') return sendJson(response, 202, { status: 'CANCELLATION_REQUESTED' });
      if (match[3] === undefined && method === 'GET') {
        return sendJson(response, 200, {
          images: [{ url: `${origin(headers)}/files/${id}.${job.format}`, width: job.width, height: job.height, content_type: MIME[job.format] }],
          timings: { inference: 0.3 },
          seed: job.seed,
          has_nsfw_concepts: [false],
          prompt: 'echo',
        });
      }
    }
    const file = /^\/files\/([^/.]+)\.(png|jpeg|webp)$/.exec(path);
    if (method === 'GET' && file?.[2] !== undefined) {
      const format = file[2] as ImageFormat;
      return sendBytes(response, 200, MIME[format], images[format]);
    }
    return sendJson(response, 404, { detail: `Path ${path} not found` });
  };
}

/** The status of a request run step by step at its `checks`-th status check (see FalRun). */
function runStatus(headers: IncomingHttpHeaders, id: string, app: string, checks: number, run: FalRun, withLogs: boolean): Record<string, unknown> {
  const ahead = run.queueAhead ?? 0;
  const steps = run.steps ?? 1;
  // Asked at submit with `ahead` before it, then one fewer per check; at position 0 it is next.
  if (checks <= ahead) return { ...queued(headers, id, 'IN_QUEUE', origin(headers), app), queue_position: ahead - checks };
  const done = checks - ahead;
  if (done <= steps) return { ...queued(headers, id, 'IN_PROGRESS', origin(headers), app), logs: withLogs ? runLogs(done, steps) : null };
  return { ...queued(headers, id, 'COMPLETED', origin(headers), app), logs: withLogs ? runLogs(steps, steps) : null, metrics: { inference_time: 0.3 } };
}

/**
 * The image inputs of fal's edit endpoints (fal-js libs/client/src/types/endpoints.ts): FLUX.2 edits require a
 * list `image_urls`, Kontext one `image_url`. A data URI must hold a real PNG, JPEG or WebP of the type it names.
 * fal's exact wording for an unreadable image is not documented; the fake answers FastAPI's 422 shape, as fal does
 * for any invalid input. imagegate sends only data URIs, so the fake takes nothing else.
 */
function imageInputProblem(model: string, input: Record<string, unknown>): Record<string, unknown> | undefined {
  const field = model === 'fal-ai/flux-pro/kontext' ? 'image_url' : model.endsWith('/edit') ? 'image_urls' : undefined;
  if (field === undefined) return undefined;
  const values: unknown[] = field === 'image_url' ? [input.image_url] : Array.isArray(input.image_urls) ? input.image_urls : [];
  if (values.length === 0 || values[0] === undefined) return { loc: ['body', field], msg: 'field required', type: 'value_error.missing' };
  for (const [index, value] of values.entries()) {
    const loc = field === 'image_url' ? ['body', field] : ['body', field, index];
    const data = typeof value === 'string' ? /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/=]+)$/.exec(value) : null;
    if (data?.[1] === undefined || data[2] === undefined || sniffImageType(Buffer.from(data[2], 'base64')) !== data[1]) {
      return { loc, msg: 'Unsupported data URL or file type', type: 'value_error' };
    }
  }
  return undefined;
}

/** Submissions that reached the fake: each is a request fal bills for. */
export const falSubmissions = (server: LoopbackServer): number => server.requests.filter((r) => r.method === 'POST' && !r.path.includes('/requests/')).length;

export async function startFalFake(
  options: FakeOptions = {},
): Promise<{ baseUrl: string; server: LoopbackServer; creations: () => number; close(): Promise<void> }> {
  const server = await startLoopbackServer(falFlow(await sampleImages(), { answer: options.answer }));
  return { baseUrl: server.origin, server, creations: () => falSubmissions(server), close: () => server.close() };
}
