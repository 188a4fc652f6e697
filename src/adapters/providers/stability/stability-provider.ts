import type { CpuPool } from '../../cpu/cpu-pool.js';
import type { ImageProvider, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { answerFailure, checkRequest, clip, readBody, stringAt, type ReadBody } from '../http-support.js';
import { stabilityCall } from './stability-request.js';

export interface StabilityOptions {
  apiKey: string;
  /** `https://api.stability.ai`, or a loopback fake in tests. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Converts masks to Stability's white-means-change greyscale off the event loop (the process's CPU pool). */
  masks?: Pick<CpuPool, 'inpaintMask'>;
}

/** The seed Stability reports in its `seed` response header, when it is a whole number. */
const seedHeader = (response: Response): number | undefined => {
  const value = Number(response.headers.get('seed') ?? '');
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
};

const describeError = ({ json }: ReadBody): string | undefined => {
  const errors = Array.isArray(json.errors) ? json.errors.filter((e): e is string => typeof e === 'string') : [];
  return [stringAt(json.name), ...errors].filter((part) => part !== undefined).join(': ') || undefined;
};

/**
 * The mask in Stability's semantics, converted before anything is sent: a mask that cannot be read is the caller's
 * to fix (a refusal, never retried), and nothing was paid for.
 */
async function convertedMask(request: ProviderRequest, masks: StabilityOptions['masks'], signal: AbortSignal | undefined): Promise<Uint8Array | undefined> {
  if (request.mask === undefined) return undefined;
  if (masks === undefined) throw new Error('Stability inpainting needs the CPU pool to convert the mask, and the adapter was built without one');
  try {
    return await masks.inpaintMask(request.mask.bytes, { signal });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ProviderRefusal(`the mask could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Stability AI's Stable Image API: multipart `POST /v2beta/stable-image/generate/{core|ultra|sd3}` (image-to-image
 * on ultra and sd3) and `POST /v2beta/stable-image/edit/inpaint`, with `Accept: image/*`, answered with the image
 * bytes and `finish-reason` and `seed` headers.
 */
export function createStabilityProvider(options: StabilityOptions, parametersOf: (model: string) => ReadonlySet<string> = () => new Set()): ImageProvider {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    id: 'stability',
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      const call = stabilityCall(request, parametersOf(request.providerModel), await convertedMask(request, options.masks, signal));
      const response = await doFetch(`${base}${call.path}`, {
        method: 'POST',
        // fetch sets the multipart Content-Type with its boundary from the FormData body.
        headers: { Authorization: `Bearer ${options.apiKey}`, Accept: 'image/*' },
        body: call.form,
        signal,
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
    check: (signal) =>
      checkRequest('Stability AI', doFetch, `${base}/v1/user/balance`, { headers: { Authorization: `Bearer ${options.apiKey}` }, signal }, describeError),
  };
}
