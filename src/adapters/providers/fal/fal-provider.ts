import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { clip, downloadImage, failOnHttpError, fastApiValidation, fireAndForget, isRecord, readBody, sameOrigin, sleep, stringAt, type ReadBody } from '../http-support.js';

export interface FalOptions {
  apiKey: string;
  /** `https://queue.fal.run`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Between status checks (default 500 ms, as fal's own client). */
  pollIntervalMs?: number;
}

function falInput(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: request.prompt, num_images: 1, output_format: 'png', enable_safety_checker: true };
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
 * fal's queue API: submit the input to `{base}/{model}`, poll the `status_url` it answers until COMPLETED,
 * read the `response_url`, then download `images[0].url`. A call given up on cancels the request.
 */
export function createFalProvider(options: FalOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const auth = { Authorization: `Key ${options.apiKey}` };
  const pollIntervalMs = options.pollIntervalMs ?? 500;

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

  async function getJson(url: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const response = await doFetch(url, { headers: auth, signal });
    await failOnHttpError('fal', response, describeError);
    return (await readBody(response)).json;
  }

  return {
    id: 'fal',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const model = request.providerModel;
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

      let result: Record<string, unknown>;
      try {
        let status = stringAt(queued.status) ?? 'IN_QUEUE';
        while (status !== 'COMPLETED') {
          await sleep(pollIntervalMs, signal);
          status = stringAt((await getJson(queueUrl(queued.status_url, model, requestId, '/status'), signal)).status) ?? 'UNKNOWN';
          if (status !== 'IN_QUEUE' && status !== 'IN_PROGRESS' && status !== 'COMPLETED') throw new Error(`fal request ${requestId} is ${status}`);
        }
        result = await getJson(queueUrl(queued.response_url, model, requestId, ''), signal);
      } catch (error) {
        if (signal?.aborted === true) fireAndForget(doFetch, queueUrl(queued.cancel_url, model, requestId, '/cancel'), { method: 'PUT', headers: auth });
        throw error;
      }

      const nsfw = Array.isArray(result.has_nsfw_concepts) && result.has_nsfw_concepts[0] === true;
      // fal blacks out a flagged image rather than failing; storing a black square would only hide the refusal.
      if (nsfw) throw new ProviderRefusal(`fal's safety checker flagged the image for request ${requestId}`);
      const first: unknown = Array.isArray(result.images) ? result.images[0] : undefined;
      const url = isRecord(first) ? stringAt(first.url) : undefined;
      if (url === undefined) throw new Error(`fal request ${requestId} completed without an image`);
      return downloadImage('fal', doFetch, url, { signal, origin: base, headers: auth });
    },
  };
}
