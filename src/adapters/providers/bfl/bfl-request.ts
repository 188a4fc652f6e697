import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { clip, fastApiValidation, nearestAspectRatio, stringAt, type ReadBody } from '../http-support.js';

/*
 * What BFL's API reference says each endpoint takes (its OpenAPI, https://api.bfl.ai/openapi.json; the pages are
 * cited in bfl-models.ts): FLUX.2 a pixel `width` and `height` and up to 8 images, Kontext an `aspect_ratio` and up
 * to 4; images as `input_image`, `input_image_2`, ... each "Base64 encoded image or URL".
 */

interface Endpoint {
  family: 'flux-2' | 'kontext';
  maxImages: number;
  /** Takes `steps` and `guidance` ([flex]). */
  tunable: boolean;
  /** Has `prompt_upsampling` ([flex] on by default, Kontext off). */
  upsampling: boolean;
}

const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  'flux-2-pro': { family: 'flux-2', maxImages: 8, tunable: false, upsampling: false },
  'flux-2-max': { family: 'flux-2', maxImages: 8, tunable: false, upsampling: false },
  'flux-2-flex': { family: 'flux-2', maxImages: 8, tunable: true, upsampling: true },
  'flux-kontext-pro': { family: 'kontext', maxImages: 4, tunable: false, upsampling: true },
  'flux-kontext-max': { family: 'kontext', maxImages: 4, tunable: false, upsampling: true },
};

/** Ratios Kontext takes, within its "21:9 to 9:21" (the ones BFL's Kontext is offered with on Replicate). */
const KONTEXT_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '4:5', '5:4', '21:9', '9:21', '2:1', '1:2'] as const;

/**
 * BFL's default tolerance, sent explicitly so a change of the default on BFL's side cannot quietly change what is
 * refused; Kontext allows no more than 2 with input images (its model page on Replicate, the same BFL model).
 */
const SAFETY_TOLERANCE = 2;

/** The bytes as plain base64, the form BFL's examples send (`base64.b64encode(...)`), no `data:` prefix. */
const base64 = (image: InputImage): string => Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64');

/** `input_image`, `input_image_2`, ... as BFL names them. */
export const imageField = (index: number): string => (index === 0 ? 'input_image' : `input_image_${index + 1}`);

/** The submit body for `POST /v1/{model}`: only what the endpoint takes, always one PNG. */
export function bflInput(request: ProviderRequest, accepts: ReadonlySet<string>): Record<string, unknown> {
  const model = request.providerModel;
  const endpoint = ENDPOINTS[model];
  // A catalogue entry this adapter cannot send: an error before anything is paid.
  if (endpoint === undefined) throw new Error(`the Black Forest Labs adapter knows no endpoint for ${model}`);
  const images = request.images ?? [];
  // Refused here rather than by BFL: a request that cannot work is never submitted.
  if (images.length > endpoint.maxImages) throw new ProviderRefusal(`${model} takes at most ${endpoint.maxImages} input images, not ${images.length}`);
  const input: Record<string, unknown> = { prompt: request.prompt };
  images.forEach((image, index) => {
    input[imageField(index)] = base64(image);
  });
  if (endpoint.family === 'kontext') input.aspect_ratio = nearestAspectRatio(request.width, request.height, KONTEXT_ASPECT_RATIOS);
  else if (accepts.has('width') || accepts.has('height')) Object.assign(input, { width: request.width, height: request.height });
  if (accepts.has('seed')) input.seed = request.seed;
  if (endpoint.tunable && accepts.has('steps') && request.steps !== undefined) input.steps = request.steps;
  if (endpoint.tunable && accepts.has('guidance') && request.guidance !== undefined) input.guidance = request.guidance;
  // A prompt rewritten by a language model would not reproduce the image from the same prompt and seed.
  if (endpoint.upsampling) input.prompt_upsampling = false;
  input.safety_tolerance = SAFETY_TOLERANCE;
  input.output_format = 'png';
  return input;
}

/** BFL's API hosts: `api.bfl.ai` and its regions (`api.eu2.bfl.ai`...), and the older `bfl.ml` domain. */
const BFL_DOMAINS = ['bfl.ai', 'bfl.ml'];

/**
 * Whether the key may follow a `polling_url` BFL answered: an https URL on BFL's own domains (any region, which
 * may change at any time), or on the configured base URL's origin (a proxy, the loopback fake). Never a URL with
 * credentials or another port in it, never another host: the `x-key` goes nowhere BFL merely named.
 */
export function trustedPollingUrl(candidate: string, base: string): boolean {
  if (!URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  if (url.username !== '' || url.password !== '') return false;
  if (URL.canParse(base) && url.origin === new URL(base).origin) return true;
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && url.port === '' && BFL_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * Where to poll a task: the `polling_url` BFL answered, which it says must be polled as given (it names the region
 * that took the task), when trusted; otherwise the base URL's `GET /v1/get_result?id=`, so the key stays home.
 */
export function pollingUrlFor(answered: string | undefined, id: string, base: string): string {
  if (answered !== undefined && trustedPollingUrl(answered, base)) return answered;
  return `${base}/v1/get_result?id=${encodeURIComponent(id)}`;
}

/** BFL's errors: FastAPI's `{ detail: [{ loc, msg }] }` for a bad body (422), else `{ detail }` or a message. */
export const describeError = ({ json, text }: ReadBody): string | undefined =>
  fastApiValidation(json) ?? stringAt(json.detail) ?? stringAt(json.message) ?? stringAt(json.error) ?? (text === '' ? undefined : clip(text));

/** What a finished task's `details` (moderation reasons, an error) say, in one short line. */
export function describeDetails(answer: Record<string, unknown>): string {
  const details = answer.details ?? answer.error;
  if (details === undefined || details === null) return 'no details given';
  return clip(typeof details === 'string' ? details : JSON.stringify(details), 200);
}
