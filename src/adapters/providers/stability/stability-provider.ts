import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { answerFailure, checkRequest, clip, nearestAspectRatio, readBody, stringAt, type ReadBody } from '../http-support.js';

export interface StabilityOptions {
  apiKey: string;
  /** `https://api.stability.ai`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
}

const STABILITY_ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
/**
 * Stability's seed range is 0..4294967294, one short of 32 bits, and 0 means "pick a random seed". The seed it
 * actually used comes back in the `seed` header and is what the image records, so a seed of 0 (or one clamped to
 * the range) is never recorded as if it reproduced the image.
 */
const MAX_SEED = 4_294_967_294;

/** The seed Stability reports in its `seed` response header, when it is a whole number. */
const seedHeader = (response: Response): number | undefined => {
  const value = Number(response.headers.get('seed') ?? '');
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
};

const describeError = ({ json }: ReadBody): string | undefined => {
  const errors = Array.isArray(json.errors) ? json.errors.filter((e): e is string => typeof e === 'string') : [];
  return [stringAt(json.name), ...errors].filter((part) => part !== undefined).join(': ') || undefined;
};

/** `core` and `ultra` are services of their own; the SD 3.5 models share the `sd3` service and are named in `model`. */
const stabilityService = (providerModel: string): string => (providerModel.startsWith('sd3') ? 'sd3' : providerModel);

function stabilityForm(request: ProviderRequest, accepts: ReadonlySet<string>): FormData {
  const form = new FormData();
  form.set('prompt', request.prompt);
  if (stabilityService(request.providerModel) === 'sd3') form.set('model', request.providerModel);
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) form.set('negative_prompt', request.negativePrompt);
  if (accepts.has('width') || accepts.has('height')) form.set('aspect_ratio', nearestAspectRatio(request.width, request.height, STABILITY_ASPECT_RATIOS));
  if (accepts.has('seed')) form.set('seed', String(Math.min(request.seed, MAX_SEED)));
  if (accepts.has('guidance') && request.guidance !== undefined) form.set('cfg_scale', String(request.guidance));
  form.set('output_format', 'png');
  return form;
}

/**
 * Stability AI's Stable Image API: multipart `POST /v2beta/stable-image/generate/{core|ultra|sd3}` with
 * `Accept: image/*`, answered with the image bytes and a `finish-reason` header.
 */
export function createStabilityProvider(options: StabilityOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    id: 'stability',
    async generate(request, callOptions) {
      const response = await doFetch(`${base}/v2beta/stable-image/generate/${stabilityService(request.providerModel)}`, {
        method: 'POST',
        // fetch sets the multipart Content-Type with its boundary from the FormData body.
        headers: { Authorization: `Bearer ${options.apiKey}`, Accept: 'image/*' },
        body: stabilityForm(request, parametersOf(request.providerModel)),
        signal: callOptions?.signal,
      });
      const type = response.headers.get('Content-Type') ?? '';
      if (response.ok && type.startsWith('image/')) {
        const finish = response.headers.get('finish-reason') ?? 'SUCCESS';
        if (finish === 'CONTENT_FILTERED') {
          await response.body?.cancel();
          throw new ProviderRefusal('Stability AI filtered the image for its content policy (finish-reason CONTENT_FILTERED)');
        }
        if (finish !== 'SUCCESS') {
          await response.body?.cancel();
          throw new Error(`Stability AI finished with ${finish}`);
        }
        const image = { bytes: new Uint8Array(await response.arrayBuffer()), contentType: type };
        const seed = seedHeader(response);
        return seed === undefined ? image : { ...image, seed };
      }
      const body = await readBody(response);
      const name = stringAt(body.json.name);
      const detail = clip(describeError(body) ?? (body.isJson ? 'no error message' : `unexpected ${type || 'body'}`));
      // Stability answers 403 for prompts its moderation flags, not (only) for bad keys.
      if (response.status === 403 && name === 'content_moderation') throw new ProviderRefusal(`Stability AI answered 403: ${detail}`);
      if (!response.ok) throw answerFailure('Stability AI', response, detail);
      throw new Error(`Stability AI answered ${response.status} with ${type || 'no content type'} instead of an image`);
    },
    // The account's credit balance (stability-ai SDK, v1.user.balance: GET /v1/user/balance): read-only, needs a valid key.
    check: (signal) => checkRequest('Stability AI', doFetch, `${base}/v1/user/balance`, { headers: { Authorization: `Bearer ${options.apiKey}` }, signal }, describeError),
  };
}
