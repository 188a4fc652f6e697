import type { ProviderImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { isRecord, nearestAspectRatio } from '../http-support.js';
import { sniffImageType } from '../sniff-image-type.js';

/*
 * The JSON bodies InvokeModel carries to Stability's models on Bedrock, and their answer, as the Bedrock user guide
 * shapes them (model-parameters-diffusion-stable-image-core-text-image-request-response.html,
 * model-parameters-diffusion-stable-ultra-text-image-request-response.html, model-parameters-diffusion-3-5-large.html,
 * stable-image-services.html; sources and dates in bedrock-models.ts):
 * - every model: `prompt`, optional `negative_prompt`, `seed` ("omit this parameter or pass 0 to use a random seed"),
 *   `output_format`;
 * - Core, Ultra and SD 3.5 text to image: `aspect_ratio`, one of 9, "only valid for text-to-image requests";
 * - SD 3.5 image to image: `mode: "image-to-image"`, `image` (base64) and `strength` (0 keeps the image, 1 ignores it,
 *   imagegate's own scale); the result follows the input's proportions;
 * - inpaint: `image` and an optional `mask` (white = fill, black = keep: the adapter converts imagegate's
 *   transparent-means-change mask); without one, as on Stability's own API, the image's transparent pixels are filled.
 * The answer is `{ seeds: [n], finish_reasons: [null | "Filter reason: prompt" | ... | "Inference error"], images: [base64] }`.
 */

const ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
/** Stability's seeds end one short of 32 bits; 0 asks for a random one, which the answer's `seeds` reports. */
const MAX_SEED = 4_294_967_294;
/** SD 3.5's image to image requires a strength and names no default: the midpoint when the caller gives none. */
export const DEFAULT_STRENGTH = 0.5;

/** How each Bedrock model is called; a model missing here has no request (the shut-down Amazon models). */
type Family = 'text-to-image' | 'image-to-image' | 'inpaint';
const FAMILIES: Readonly<Record<string, Family>> = {
  'stability.stable-image-core-v1:1': 'text-to-image',
  'stability.stable-image-ultra-v1:1': 'text-to-image',
  'stability.sd3-5-large-v1:0': 'image-to-image',
  'us.stability.stable-image-inpaint-v1:0': 'inpaint',
};

export const isInpaintModel = (providerModel: string): boolean => FAMILIES[providerModel] === 'inpaint';

/** Base64 without Node's Buffer, so the adapter runs on Workers too. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In pieces: String.fromCharCode takes its bytes as arguments, and a few megabytes of them overflow the stack.
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The body for this generation, sending only what the model accepts. `inpaintMask` is `request.mask` already in
 * Stability's semantics (white = change). A request the model cannot take is refused here, before anything is sent.
 */
export function bedrockBody(request: ProviderRequest, accepts: ReadonlySet<string>, inpaintMask?: Uint8Array): Record<string, unknown> {
  const model = request.providerModel;
  const family = FAMILIES[model];
  if (family === undefined) throw new ProviderRefusal(`imagegate has no request for the Amazon Bedrock model ${model}`);
  const [image] = request.images ?? [];
  if (request.mask !== undefined && family !== 'inpaint')
    throw new ProviderRefusal(`${model} takes no mask on Bedrock; inpainting is us.stability.stable-image-inpaint-v1:0`);
  if (image !== undefined && family === 'text-to-image') throw new ProviderRefusal(`${model} takes no input image on Bedrock`);
  const body: Record<string, unknown> = { prompt: request.prompt };
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) body.negative_prompt = request.negativePrompt;
  if (accepts.has('seed')) body.seed = Math.min(request.seed, MAX_SEED);
  body.output_format = 'png';
  const sizedByRatio = accepts.has('width') || accepts.has('height');
  if (family === 'inpaint') {
    if (image === undefined) throw new ProviderRefusal(`${model} needs the image to edit`);
    body.image = toBase64(image.bytes);
    if (inpaintMask !== undefined) body.mask = toBase64(inpaintMask);
  } else if (image !== undefined) {
    Object.assign(body, { mode: 'image-to-image', image: toBase64(image.bytes), strength: request.strength ?? DEFAULT_STRENGTH });
  } else {
    if (family === 'image-to-image') body.mode = 'text-to-image';
    if (sizedByRatio) body.aspect_ratio = nearestAspectRatio(request.width, request.height, ASPECT_RATIOS);
  }
  return body;
}

/** The first item of a list in an answer (Bedrock answers lists of one for a single image). */
const firstOf = (value: unknown): unknown => (Array.isArray(value) ? (value as unknown[])[0] : undefined);

/**
 * The image of a Stability answer. A filter's finish reason is a refusal (the prompt, an input or the output was
 * filtered: retrying cannot help); "Inference error" and an answer without an image are failures.
 */
export function stabilityAnswer(body: Uint8Array): ProviderImage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new Error('Amazon Bedrock answered 200 with a body that is not JSON');
  }
  const json = isRecord(parsed) ? parsed : {};
  const reason = firstOf(json.finish_reasons);
  if (typeof reason === 'string' && /^filter reason/i.test(reason))
    throw new ProviderRefusal(`Amazon Bedrock's Stability model filtered the request (${reason})`);
  if (typeof reason === 'string') throw new Error(`Amazon Bedrock's Stability model finished with "${reason}"`);
  const first = firstOf(json.images);
  if (typeof first !== 'string' || first === '') throw new Error('Amazon Bedrock answered 200 without an image');
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(first);
  } catch {
    throw new Error('Amazon Bedrock answered an image that is not base64');
  }
  const seed = firstOf(json.seeds);
  const image = { bytes, contentType: sniffImageType(bytes) };
  return typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 ? { ...image, seed } : image;
}
