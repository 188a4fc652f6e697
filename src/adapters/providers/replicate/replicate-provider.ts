import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { clip, downloadImage, failOnHttpError, fireAndForget, isRecord, nearestAspectRatio, readBody, sameOrigin, sleep, stringAt, type ReadBody } from '../http-support.js';

export interface ReplicateOptions {
  apiToken: string;
  /** `https://api.replicate.com`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Between status checks once `Prefer: wait` has run out (default 1 s). */
  pollIntervalMs?: number;
}

/** The `aspect_ratio` values FLUX on Replicate takes (cog-flux predict.py, ASPECT_RATIOS). */
const FLUX_ASPECT_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;

function replicateInput(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: request.prompt, num_outputs: 1, output_format: 'png' };
  if (accepts.has('width') || accepts.has('height')) input.aspect_ratio = nearestAspectRatio(request.width, request.height, FLUX_ASPECT_RATIOS);
  if (accepts.has('seed')) input.seed = request.seed;
  if (accepts.has('steps') && request.steps !== undefined) input.num_inference_steps = request.steps;
  if (accepts.has('guidance') && request.guidance !== undefined) input.guidance = request.guidance;
  return input;
}

const describeError = ({ json, text }: ReadBody): string | undefined => stringAt(json.detail)?.trim() ?? stringAt(json.title) ?? (text === '' ? undefined : clip(text));
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
/** Transient status-check failures tolerated in a row before giving up on a prediction. */
const MAX_POLL_FAILURES = 3;

/**
 * Replicate: create a prediction with `Prefer: wait` (which often returns it finished), poll its `urls.get`
 * until it succeeds, fails or is canceled, then download the output file. A call given up on (timeout,
 * caller gone) cancels the prediction so it stops costing money.
 */
export function createReplicateProvider(options: ReplicateOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = { Authorization: `Bearer ${options.apiToken}` };
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;

  /** Status checks go to the API origin only, so the token never follows a URL to another host. */
  const statusUrl = (prediction: Record<string, unknown>): string => {
    const get = isRecord(prediction.urls) ? stringAt(prediction.urls.get) : undefined;
    if (get !== undefined && sameOrigin(get, base)) return get;
    return `${base}/v1/predictions/${encodeURIComponent(stringAt(prediction.id) ?? '')}`;
  };

  async function untilDone(first: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    let prediction = first;
    let failures = 0;
    while (!TERMINAL.has(String(prediction.status))) {
      await sleep(pollIntervalMs, signal);
      const response = await doFetch(statusUrl(prediction), { headers: auth, signal });
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        failures += 1;
        if (failures >= MAX_POLL_FAILURES) throw new Error(`Replicate status checks for prediction ${String(prediction.id)} failed ${failures} times (last: ${response.status})`);
        continue;
      }
      await failOnHttpError('Replicate', response, describeError);
      failures = 0;
      prediction = (await readBody(response)).json;
    }
    return prediction;
  }

  return {
    id: 'replicate',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const [owner, name] = request.providerModel.split('/');
      const response = await doFetch(`${base}/v1/models/${encodeURIComponent(owner ?? '')}/${encodeURIComponent(name ?? '')}/predictions`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', Prefer: 'wait' },
        body: JSON.stringify({ input: replicateInput(request, parametersOf(request.providerModel)) }),
        signal,
      });
      await failOnHttpError('Replicate', response, describeError);
      const created = (await readBody(response)).json;
      let prediction: Record<string, unknown>;
      try {
        prediction = await untilDone(created, signal);
      } catch (error) {
        const id = stringAt(created.id);
        if (signal?.aborted === true && id !== undefined) {
          fireAndForget(doFetch, `${base}/v1/predictions/${encodeURIComponent(id)}/cancel`, { method: 'POST', headers: auth });
        }
        throw error;
      }
      const id = String(prediction.id);
      if (prediction.status === 'failed') {
        const reason = stringAt(prediction.error) ?? 'no reason given';
        // FLUX's safety checker fails the prediction; that is about the prompt, so retrying will not help.
        if (/nsfw/i.test(reason)) throw new ProviderRefusal(`Replicate refused prediction ${id}: ${clip(reason)}`);
        throw new Error(`Replicate prediction ${id} failed: ${clip(reason)}`);
      }
      if (prediction.status === 'canceled') throw new Error(`Replicate prediction ${id} was canceled`);
      const output: unknown = Array.isArray(prediction.output) ? prediction.output[0] : prediction.output;
      const url = stringAt(output);
      if (url === undefined) throw new Error(`Replicate prediction ${id} succeeded without an output file`);
      return downloadImage('Replicate', doFetch, url, { signal, origin: base, headers: auth });
    },
  };
}
