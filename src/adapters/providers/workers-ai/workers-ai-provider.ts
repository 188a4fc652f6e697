import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { base64Image, failOnHttpError, isRecord, readBody, stringAt } from '../http-support.js';

export interface WorkersAiOptions {
  accountId: string;
  apiToken: string;
  /** `https://api.cloudflare.com/client/v4`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** FLUX and Lucid Origin name the step count `steps`; the Stable Diffusion family and Phoenix use `num_steps`. */
const STEPS_FIELD: Record<string, string> = {
  '@cf/black-forest-labs/flux-1-schnell': 'steps',
  '@cf/leonardo/lucid-origin': 'steps',
};

export function workersAiBody(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const body: Record<string, unknown> = { prompt: request.prompt };
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (accepts.has('width')) body.width = request.width;
  if (accepts.has('height')) body.height = request.height;
  if (accepts.has('seed')) body.seed = request.seed;
  if (accepts.has('guidance') && request.guidance !== undefined) body.guidance = request.guidance;
  if (accepts.has('steps') && request.steps !== undefined) body[STEPS_FIELD[request.providerModel] ?? 'num_steps'] = request.steps;
  return body;
}

const reasonsOf = (json: Record<string, unknown>): string =>
  (Array.isArray(json.errors) ? json.errors.filter(isRecord) : []).map((e) => stringAt(e.message) ?? `code ${String(e.code ?? '?')}`).join('; ');

/**
 * Workers AI over REST: `POST /accounts/{account}/ai/run/{model}`. Some models answer JSON with a base64
 * image, others the raw image bytes; failures come as `{ success: false, errors: [...] }`.
 */
export function createWorkersAiProvider(options: WorkersAiOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  return {
    id: 'workers-ai',
    async generate(request, callOptions) {
      const url = `${options.baseUrl}/accounts/${encodeURIComponent(options.accountId)}/ai/run/${request.providerModel}`;
      const signals = [AbortSignal.timeout(options.timeoutMs ?? 120_000)];
      if (callOptions?.signal !== undefined) signals.push(callOptions.signal);
      const response = await doFetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${options.apiToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(workersAiBody(request, parametersOf(request.providerModel))),
        signal: AbortSignal.any(signals),
      });
      const type = response.headers.get('Content-Type') ?? '';
      if (type.startsWith('image/') && response.ok) {
        return { bytes: new Uint8Array(await response.arrayBuffer()), contentType: type };
      }
      await failOnHttpError('Workers AI', response, ({ json }) => reasonsOf(json) || undefined);
      const { json, isJson } = await readBody(response);
      const image = isRecord(json.result) ? stringAt(json.result.image) : undefined;
      if (json.success === false || image === undefined) {
        const reasons = reasonsOf(json);
        throw new Error(`Workers AI answered ${response.status} with ${isJson ? `no image in the answer${reasons === '' ? '' : `: ${reasons}`}` : `an unexpected ${type || 'body'}`}`);
      }
      return base64Image(image);
    },
  };
}
