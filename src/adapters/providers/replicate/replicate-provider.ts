import type { CallJournal, ImageProvider, InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderJobAbandoned, ProviderRefusal } from '../../../ports/image-provider.js';
import {
  checkRequest,
  clip,
  downloadImage,
  failOnHttpError,
  fireAndForget,
  isRecord,
  nearestAspectRatio,
  readBody,
  sameOrigin,
  sleep,
  stringAt,
  type ReadBody,
} from '../http-support.js';
import { lastProgressBar, steadyProgress, stepProgress, type ReportProgress } from '../progress-reports.js';
import { fileInputs, imageFields, isKontext, kontextAspectRatio } from './replicate-inputs.js';

export interface ReplicateOptions {
  apiToken: string;
  /** `https://api.replicate.com`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Between status checks once `Prefer: wait` has run out (default 1 s). */
  pollIntervalMs?: number;
  /**
   * Sent as `Cancel-After` on every create (PROVIDER_TIMEOUT_MS): a prediction outliving the time imagegate would
   * wait for it cancels itself, even one whose id never reached us because the create timed out.
   */
  cancelAfterMs?: number;
}

/** The `aspect_ratio` values FLUX.1 on Replicate takes (cog-flux predict.py, ASPECT_RATIOS). */
const FLUX_ASPECT_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;

/** Models that take an exact size as `aspect_ratio: "custom"` with `width`/`height` (their API pages' input schemas). */
const CUSTOM_SIZE = new Set(['black-forest-labs/flux-1.1-pro', 'black-forest-labs/flux-2-pro']);

/**
 * The cog-flux models (predict.py): they take `num_outputs`, and `go_fast`, on by default and non-deterministic even
 * with a seed. imagegate always sends a seed and promises the same prompt and seed give the same image, so it is
 * always turned off.
 */
const COG_FLUX = new Set(['black-forest-labs/flux-schnell', 'black-forest-labs/flux-dev']);

/**
 * The prediction input, as Replicate's model API pages (input schema) and cog-flux predict.py name the fields;
 * `refs` are the input images as the prediction takes them (data URIs or uploaded files' URLs).
 */
function replicateInput(request: ProviderRequest, accepts: ReadonlySet<string>, refs: readonly string[]): Record<string, unknown> {
  const model = request.providerModel;
  const input: Record<string, unknown> = { prompt: request.prompt, output_format: 'png' };
  if (COG_FLUX.has(model)) input.num_outputs = 1;
  if (CUSTOM_SIZE.has(model)) Object.assign(input, { aspect_ratio: 'custom', width: request.width, height: request.height });
  else if (isKontext(model)) input.aspect_ratio = kontextAspectRatio(request);
  else if (accepts.has('width') || accepts.has('height')) input.aspect_ratio = nearestAspectRatio(request.width, request.height, FLUX_ASPECT_RATIOS);
  if (accepts.has('seed')) input.seed = request.seed;
  if (COG_FLUX.has(model)) input.go_fast = false;
  if (accepts.has('steps') && request.steps !== undefined) input.num_inference_steps = request.steps;
  if (accepts.has('guidance') && request.guidance !== undefined) input.guidance = request.guidance;
  return { ...input, ...imageFields(model, refs) };
}

const describeError = ({ json, text }: ReadBody): string | undefined =>
  stringAt(json.detail)?.trim() ?? stringAt(json.title) ?? (text === '' ? undefined : clip(text));
/** `aborted`: the Cancel-After deadline passed before the prediction started (not billed). */
const TERMINAL = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** A Go-style duration, as the header takes it ("1m" in Replicate's changelog 2025-10-16). */
const duration = (ms: number): string => `${Math.max(1, Math.ceil(ms / 1000))}s`;

/**
 * `Prefer: wait=n` (1 to 60 s; bare `wait` is 60): a create held open past the call's deadline would be cut with the
 * prediction made but its id unknown (an unknown outcome), so it waits at most half the time the call has.
 */
const preferWait = (cancelAfterMs: number | undefined): string =>
  cancelAfterMs === undefined ? 'wait' : `wait=${Math.min(60, Math.max(1, Math.floor(cancelAfterMs / 2_000)))}`;

/**
 * How far a prediction still running got, from what Replicate answers about it (the Prediction of
 * replicate-javascript index.d.ts: `status` and the `logs` its model printed so far). `starting` lasts while a worker
 * boots for it (a cold start); once `processing`, diffusers models log their denoising steps as tqdm bars, which
 * Replicate's own client reads as the prediction's progress (lib/util.js, parseProgressFromLogs).
 */
function reportPrediction(prediction: Record<string, unknown>, report: ReportProgress): void {
  if (prediction.status === 'starting') return report({ message: 'starting: the model is booting' });
  if (prediction.status !== 'processing') return;
  const steps = typeof prediction.logs === 'string' ? lastProgressBar(prediction.logs) : undefined;
  report(steps === undefined ? { message: 'processing' } : stepProgress(steps));
}

/**
 * Replicate: upload any input image too large for a data URI, create a prediction with `Prefer: wait` (which often
 * returns it finished) and `Cancel-After`, poll
 * its `urls.get` until it succeeds, fails or is canceled, then download the output file. The prediction goes
 * into the call's journal as soon as it exists, so a retry polls it again rather than creating another.
 */
export function createReplicateProvider(options: ReplicateOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = { Authorization: `Bearer ${options.apiToken}` };
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;

  /** Status checks go to the API origin only, so the token never follows a URL to another host. */
  const statusUrl = (journal: { id: string; urls?: Readonly<Record<string, string>> }): string => {
    const get = journal.urls?.get;
    if (get !== undefined && sameOrigin(get, base)) return get;
    return `${base}/v1/predictions/${encodeURIComponent(journal.id)}`;
  };

  async function fetchPrediction(url: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const response = await doFetch(url, { headers: auth, signal });
    await failOnHttpError('Replicate', response, describeError);
    return (await readBody(response)).json;
  }

  /** A file too large for a data URI goes to Replicate's file store first (free; nothing runs until the create). */
  async function upload(image: InputImage, signal?: AbortSignal): Promise<string> {
    const form = new FormData();
    form.append('content', new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.filename);
    form.append('metadata', new Blob([JSON.stringify({})], { type: 'application/json' }));
    const response = await doFetch(`${base}/v1/files`, { method: 'POST', headers: auth, body: form, signal });
    await failOnHttpError('Replicate', response, describeError);
    const { json } = await readBody(response);
    const url = isRecord(json.urls) ? stringAt(json.urls.get) : undefined;
    if (url === undefined) throw new Error('Replicate answered a file upload without its URL');
    return url;
  }

  async function create(request: ProviderRequest, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const refs = await fileInputs(request.images ?? [], (image) => upload(image, signal));
    const [owner, name] = request.providerModel.split('/');
    const headers: Record<string, string> = { ...auth, 'Content-Type': 'application/json', Prefer: preferWait(options.cancelAfterMs) };
    if (options.cancelAfterMs !== undefined) headers['Cancel-After'] = duration(options.cancelAfterMs);
    const response = await doFetch(`${base}/v1/models/${encodeURIComponent(owner ?? '')}/${encodeURIComponent(name ?? '')}/predictions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ input: replicateInput(request, parametersOf(request.providerModel), refs) }),
      signal,
    });
    await failOnHttpError('Replicate', response, describeError);
    return (await readBody(response)).json;
  }

  /** Creates the prediction, or finds the one this call already created; then waits until it finishes, telling how far it got. */
  async function finished(
    request: ProviderRequest,
    journal: CallJournal,
    signal: AbortSignal | undefined,
    report: ReportProgress,
  ): Promise<Record<string, unknown>> {
    let prediction = journal.job === undefined ? await create(request, signal) : await fetchPrediction(statusUrl(journal.job), signal);
    if (journal.job === undefined) {
      const id = stringAt(prediction.id);
      if (id === undefined) throw new Error('Replicate answered a create without a prediction id');
      const get = isRecord(prediction.urls) ? stringAt(prediction.urls.get) : undefined;
      journal.job = get === undefined ? { id } : { id, urls: { get } };
    }
    const job = journal.job;
    while (!TERMINAL.has(String(prediction.status))) {
      reportPrediction(prediction, report);
      await sleep(pollIntervalMs, signal);
      prediction = await fetchPrediction(statusUrl(job), signal);
    }
    return prediction;
  }

  return {
    id: 'replicate',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const journal = callOptions?.journal ?? {};
      if (journal.output === undefined) {
        const prediction = await finished(request, journal, signal, steadyProgress(callOptions?.onProgress));
        const id = String(prediction.id);
        if (prediction.status === 'failed') {
          const reason = stringAt(prediction.error) ?? 'no reason given';
          // FLUX's safety checker fails the prediction; that is about the prompt, so retrying will not help.
          if (/nsfw/i.test(reason)) throw new ProviderRefusal(`Replicate refused prediction ${id}: ${clip(reason)}`);
          throw new Error(`Replicate prediction ${id} failed: ${clip(reason)}`);
        }
        // Replicate bills a canceled prediction for the time it ran (one imagegate cancelled, or Cancel-After did).
        if (prediction.status === 'canceled')
          throw new ProviderJobAbandoned(`Replicate prediction ${id} was canceled; Replicate bills it without an image`, 504);
        // `aborted`: its Cancel-After deadline passed before it started, so nothing ran and nothing is billed.
        if (prediction.status === 'aborted') throw new Error(`Replicate prediction ${id} was aborted before it started`);
        const output: unknown = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
        const url = stringAt(output);
        if (url === undefined) throw new Error(`Replicate prediction ${id} succeeded without an output file`);
        journal.output = { url };
      }
      return downloadImage('Replicate', doFetch, journal.output.url, { signal, origin: base, headers: auth });
    },
    cancel(journal) {
      if (journal.job === undefined) return;
      fireAndForget(doFetch, `${base}/v1/predictions/${encodeURIComponent(journal.job.id)}/cancel`, { method: 'POST', headers: auth });
    },
    // The account the token belongs to (replicate-python-beta src/replicate/resources/account.py: GET /account).
    check: (signal) => checkRequest('Replicate', doFetch, `${base}/v1/account`, { headers: auth, signal }, describeError),
  };
}
