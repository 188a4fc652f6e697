import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderRefusal } from '../../../ports/image-provider.js';
import { nearestAspectRatio } from '../http-support.js';

/*
 * The multipart requests of Stability's Stable Image API (v2beta), as its API reference shapes them. Stability's own
 * pages were not among the stored sources; the reference is read from tryAGI/StabilityAI at 67b31be, generated from
 * https://api.stability.ai/v2alpha/openapi (src/libs/StabilityAI/Generated/StabilityAI.IGenerateClient.
 * CreateStableImageGenerate{Ultra,Sd3,Core}.g.cs and StabilityAI.IEditClient.CreateStableImageEditInpaint.g.cs):
 * - generate/ultra: optional `image` + `strength` ("required when image is provided"), `aspect_ratio` unrestricted;
 * - generate/sd3: image-to-image needs `mode=image-to-image`, `image` and `strength`; `aspect_ratio` is "only valid
 *   for text-to-image requests";
 * - generate/core takes no image;
 * - edit/inpaint: `image` and `prompt` required; optional `mask`, `negative_prompt`, `grow_mask`, `seed`,
 *   `output_format`, `style_preset`. Without a mask "one will be derived from the alpha channel of the `image`
 *   parameter. Transparent pixels will be inpainted while opaque pixels will be preserved."
 * `strength` is the same scale as imagegate's: 0 keeps the image, 1 is "as if you passed in no image at all".
 */

const STABILITY_ASPECT_RATIOS = ['16:9', '1:1', '21:9', '2:3', '3:2', '4:5', '5:4', '9:16', '9:21'] as const;
/**
 * Stability's seed range is 0..4294967294, one short of 32 bits, and 0 means "pick a random seed". The seed it
 * actually used comes back in the `seed` header and is what the image records, so a seed of 0 (or one clamped to
 * the range) is never recorded as if it reproduced the image.
 */
const MAX_SEED = 4_294_967_294;
/** Stability requires a strength with an image and names no default; the midpoint when the caller gives none. */
export const DEFAULT_STRENGTH = 0.5;
/** The catalogue's provider model for `POST /v2beta/stable-image/edit/inpaint`. */
export const INPAINT_MODEL = 'inpaint';
/** The generate services whose API takes `image` + `strength`. */
const IMAGE_TO_IMAGE = new Set(['ultra', 'sd3']);

/** `core` and `ultra` are services of their own; the SD 3.5 models share the `sd3` service and are named in `model`. */
export const stabilityService = (providerModel: string): string => (providerModel.startsWith('sd3') ? 'sd3' : providerModel);

const fileOf = (bytes: Uint8Array, filename: string, type: string): File => new File([new Uint8Array(bytes)], filename, { type });

export interface StabilityCall {
  /** The path under the API's origin. */
  path: string;
  form: FormData;
}

/** The fields every Stability service here shares, each sent only when the model takes it. */
function baseForm(request: ProviderRequest, accepts: ReadonlySet<string>): FormData {
  const form = new FormData();
  form.set('prompt', request.prompt);
  if (accepts.has('negative_prompt') && request.negativePrompt !== undefined) form.set('negative_prompt', request.negativePrompt);
  if (accepts.has('seed')) form.set('seed', String(Math.min(request.seed, MAX_SEED)));
  form.set('output_format', 'png');
  return form;
}

/**
 * The request for this generation. `inpaintMask` is `request.mask` already converted to Stability's semantics
 * (white = change); a request Stability cannot take is refused here, before anything is sent or paid.
 */
export function stabilityCall(request: ProviderRequest, accepts: ReadonlySet<string>, inpaintMask?: Uint8Array): StabilityCall {
  const [image] = request.images ?? [];
  if (request.providerModel === INPAINT_MODEL) return inpaintCall(request, accepts, image, inpaintMask);
  const service = stabilityService(request.providerModel);
  if (request.mask !== undefined) throw new ProviderRefusal(`Stability's ${service} service takes no mask; inpainting is stability/inpaint`);
  if (image !== undefined && !IMAGE_TO_IMAGE.has(service)) throw new ProviderRefusal(`Stability's ${service} service takes no input image`);
  const form = baseForm(request, accepts);
  if (service === 'sd3') form.set('model', request.providerModel);
  // sd3's aspect_ratio is "only valid for text-to-image" (its image-to-image result follows the input); ultra's is not limited.
  const sizedByRatio = (accepts.has('width') || accepts.has('height')) && !(service === 'sd3' && image !== undefined);
  if (sizedByRatio) form.set('aspect_ratio', nearestAspectRatio(request.width, request.height, STABILITY_ASPECT_RATIOS));
  if (accepts.has('guidance') && request.guidance !== undefined) form.set('cfg_scale', String(request.guidance));
  if (image !== undefined) {
    if (service === 'sd3') form.set('mode', 'image-to-image');
    form.set('image', fileOf(image.bytes, image.filename, image.contentType));
    form.set('strength', String(request.strength ?? DEFAULT_STRENGTH));
  }
  return { path: `/v2beta/stable-image/generate/${service}`, form };
}

function inpaintCall(request: ProviderRequest, accepts: ReadonlySet<string>, image: InputImage | undefined, mask: Uint8Array | undefined): StabilityCall {
  if (image === undefined) throw new ProviderRefusal('Stability inpainting needs the image to edit');
  const form = baseForm(request, accepts);
  form.set('image', fileOf(image.bytes, image.filename, image.contentType));
  // Without a mask Stability inpaints the image's own transparent pixels: the same semantics as imagegate's mask.
  if (mask !== undefined) form.set('mask', fileOf(mask, 'mask.png', 'image/png'));
  return { path: '/v2beta/stable-image/edit/inpaint', form };
}
