import type { AcceptedJob, CallJournal, ImageProvider, InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import {
  checkRequest,
  clip,
  downloadImage,
  failOnHttpError,
  fastApiValidation,
  fireAndForget,
  isRecord,
  readBody,
  sameOrigin,
  sleep,
  stringAt,
  type ReadBody,
} from '../http-support.js';
import { lastProgressBar, steadyProgress, stepProgress, type ReportProgress } from '../progress-reports.js';

export interface FalOptions {
  apiKey: string;
  /** `https://queue.fal.run`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Between status checks (default 500 ms, as fal's own client). */
  pollIntervalMs?: number;
  /** fal's platform API (model metadata, pricing) for `imagegate models --check`: `https://api.fal.ai` by default, the base URL otherwise. */
  platformUrl?: string;
}

const DEFAULT_QUEUE = 'https://queue.fal.run';
/** The model whose price `imagegate models --check` reads: a read-only call that needs a valid key. */
const CHECK_ENDPOINT = 'fal-ai/flux/schnell';

/**
 * The fal endpoints that take input images, and how. fal-js's generated endpoint types (libs/client/src/types/
 * endpoints.ts): the FLUX.2 edits read a list `image_urls` (Flux2EditInput, Flux2ProEditInput), FLUX.1 Kontext [pro]
 * one `image_url` and has no `enable_safety_checker` or `image_size` (FluxKontextInput).
 */
interface ImageEndpoint {
  field: 'image_urls' | 'image_url';
  safetyChecker: boolean;
}
const IMAGE_ENDPOINTS: Readonly<Record<string, ImageEndpoint>> = {
  'fal-ai/flux-2/edit': { field: 'image_urls', safetyChecker: true },
  'fal-ai/flux-2-pro/edit': { field: 'image_urls', safetyChecker: true },
  'fal-ai/flux-pro/kontext': { field: 'image_url', safetyChecker: false },
};

/**
 * An input image inline, as a data URI: fal's models accept them for any file input ("Models also accept
 * base64-encoded data URIs", docs.fal.ai/documentation/model-apis/fal-cdn), so the bytes never need a public URL
 * or a separate upload to fal's storage.
 */
const dataUri = (image: InputImage): string => `data:${image.contentType};base64,${Buffer.from(image.bytes).toString('base64')}`;

function falInput(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const model = request.providerModel;
  const endpoint = IMAGE_ENDPOINTS[model];
  const images = request.images ?? [];
  // Refused here rather than by fal: a request that cannot work is never submitted.
  if (endpoint !== undefined && images.length === 0) throw new ProviderRefusal(`${model} edits an input image: give one`);
  if (endpoint === undefined && images.length > 0) throw new ProviderRefusal(`${model} takes no input images`);
  const input: Record<string, unknown> = { prompt: request.prompt, num_images: 1, output_format: 'png' };
  if (endpoint?.safetyChecker !== false) input.enable_safety_checker = true;
  if (endpoint?.field === 'image_urls') input.image_urls = images.map(dataUri);
  if (endpoint?.field === 'image_url' && images[0] !== undefined) input.image_url = dataUri(images[0]);
  if (accepts.has('width') || accepts.has('height')) input.image_size = { width: request.width, height: request.height };
  if (accepts.has('seed')) input.seed = request.seed;
  if (accepts.has('steps') && request.steps !== undefined) input.num_inference_steps = request.steps;
  if (accepts.has('guidance') && request.guidance !== undefined) input.guidance_scale = request.guidance;
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) input.negative_prompt = request.negativePrompt;
  return input;
}

/** fal's errors: `{ detail: "..." }`, or FastAPI's `{ detail: [{ loc, msg, type }] }` for a bad input. */
const describeError = ({ json, text }: ReadBody): string | undefined =>
  fastApiValidation(json) ?? stringAt(json.detail) ?? stringAt(json.error) ?? (text === '' ? undefined : clip(text));

/**
 * How far a queued request got, from its queue status (fal-js libs/client/src/types/common.ts: IN_QUEUE with its
 * `queue_position`, IN_PROGRESS with the `logs` asked for by `?logs=1`, each `{ message, level, source, timestamp }`).
 * Models built on diffusers print their denoising steps as tqdm bars, which are read as the fraction done.
 */
function reportStatus(answer: Record<string, unknown>, report: ReportProgress): void {
  if (answer.status === 'IN_QUEUE') {
    const position = typeof answer.queue_position === 'number' ? answer.queue_position : undefined;
    return report({ message: position === undefined ? 'in queue' : `in queue at position ${position}` });
  }
  if (answer.status !== 'IN_PROGRESS') return;
  const logs = Array.isArray(answer.logs) ? answer.logs.filter(isRecord).map((log) => stringAt(log.message) ?? '') : [];
  const steps = lastProgressBar(logs.join('\n'));
  report(steps === undefined ? { message: 'running' } : stepProgress(steps));
}

/** The status URL asking for the request's logs too (fal-js queue.ts `status`: `logs: "1"`). */
function withLogs(url: string): string {
  const withQuery = new URL(url);
  withQuery.searchParams.set('logs', '1');
  return withQuery.toString();
}

/**
 * fal's queue API: submit the input to `{base}/{model}`, poll the `status_url` it answers until COMPLETED,
 * read the `response_url`, then download `images[0].url`. The request goes into the call's journal once fal
 * accepted it, so a retry polls it again instead of submitting (and paying for) another.
 */
export function createFalProvider(options: FalOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = { Authorization: `Key ${options.apiKey}` };
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const platform = (options.platformUrl ?? (base === DEFAULT_QUEUE ? 'https://api.fal.ai' : base)).replace(/\/+$/, '');

  /**
   * The URL fal answered when it is on the API's origin; otherwise the documented one, so the key never
   * follows a URL to another host. Status and result live under the app (`fal-ai/flux`), not the full model path.
   */
  const queueUrl = (answered: unknown, model: string, requestId: string, suffix: string): string => {
    const url = stringAt(answered);
    if (url !== undefined && sameOrigin(url, base)) return url;
    const app = model.split('/').slice(0, 2).join('/');
    return `${base}/${app}/requests/${encodeURIComponent(requestId)}${suffix}`;
  };

  /** The accepted request with its three queue URLs, checked once, so resuming or cancelling needs nothing else. */
  const acceptedJob = (queued: Record<string, unknown>, model: string, requestId: string): AcceptedJob => ({
    id: requestId,
    urls: {
      status: queueUrl(queued.status_url, model, requestId, '/status'),
      response: queueUrl(queued.response_url, model, requestId, ''),
      cancel: queueUrl(queued.cancel_url, model, requestId, '/cancel'),
    },
  });
  const urlOf = (job: AcceptedJob, key: 'status' | 'response' | 'cancel'): string => job.urls?.[key] ?? `${base}/requests/${encodeURIComponent(job.id)}`;

  async function getJson(url: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const response = await doFetch(url, { headers: auth, signal });
    await failOnHttpError('fal', response, describeError);
    return (await readBody(response)).json;
  }

  /** Submits the request, or finds the one this call already submitted; then waits for its result, telling how far it got. */
  async function result(
    request: ProviderRequest,
    journal: CallJournal,
    signal: AbortSignal | undefined,
    report: ReportProgress | undefined,
  ): Promise<Record<string, unknown>> {
    const model = request.providerModel;
    let status = 'IN_QUEUE';
    if (journal.job === undefined) {
      const submitted = await doFetch(`${base}/${model}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(falInput(request, parametersOf(model))),
        signal,
      });
      await failOnHttpError('fal', submitted, describeError);
      const queued = (await readBody(submitted)).json;
      const requestId = stringAt(queued.request_id);
      if (requestId === undefined) throw new Error(`fal answered ${submitted.status} without a request_id`);
      journal.job = acceptedJob(queued, model, requestId);
      status = stringAt(queued.status) ?? status;
      if (report !== undefined) reportStatus(queued, report);
    }
    const job = journal.job;
    // Its logs only for a caller that follows its progress: they grow with every check.
    const statusUrl = report === undefined ? urlOf(job, 'status') : withLogs(urlOf(job, 'status'));
    while (status !== 'COMPLETED') {
      await sleep(pollIntervalMs, signal);
      const answer = await getJson(statusUrl, signal);
      status = stringAt(answer.status) ?? 'UNKNOWN';
      if (status !== 'IN_QUEUE' && status !== 'IN_PROGRESS' && status !== 'COMPLETED') throw new Error(`fal request ${job.id} is ${status}`);
      if (report !== undefined) reportStatus(answer, report);
    }
    return getJson(urlOf(job, 'response'), signal);
  }

  return {
    id: 'fal',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const journal = callOptions?.journal ?? {};
      if (journal.output === undefined) {
        const onProgress = callOptions?.onProgress;
        const answer = await result(request, journal, signal, onProgress === undefined ? undefined : steadyProgress(onProgress));
        const requestId = journal.job?.id ?? '?';
        const nsfw = Array.isArray(answer.has_nsfw_concepts) && answer.has_nsfw_concepts[0] === true;
        // fal blacks out a flagged image rather than failing; storing a black square would only hide the refusal.
        if (nsfw) throw new ProviderRefusal(`fal's safety checker flagged the image for request ${requestId}`);
        const first: unknown = Array.isArray(answer.images) ? answer.images[0] : undefined;
        const url = isRecord(first) ? stringAt(first.url) : undefined;
        if (url === undefined) throw new Error(`fal request ${requestId} completed without an image`);
        journal.output = typeof answer.seed === 'number' ? { url, seed: answer.seed } : { url };
      }
      const image = await downloadImage('fal', doFetch, journal.output.url, { signal, origin: base, headers: auth });
      return journal.output.seed === undefined ? image : { ...image, seed: journal.output.seed };
    },
    cancel(journal) {
      const job = journal.job;
      if (job === undefined) return;
      fireAndForget(doFetch, urlOf(job, 'cancel'), { method: 'PUT', headers: auth });
    },
    check: (signal) =>
      checkRequest('fal', doFetch, `${platform}/v1/models/pricing?endpoint_id=${encodeURIComponent(CHECK_ENDPOINT)}`, { headers: auth, signal }, describeError),
  };
}
