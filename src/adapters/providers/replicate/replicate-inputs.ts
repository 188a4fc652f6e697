import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { nearestAspectRatio } from '../http-support.js';

/*
 * Input images on Replicate, as the model API pages name them:
 * - FLUX.1 Kontext [pro] and [max]: one `input_image` (a URI: "Image to use as reference. Must be jpeg, png, gif, or
 *   webp"), with `aspect_ratio` "match_input_image" (its default) or one of 13 ratios
 *   (replicate.com/black-forest-labs/flux-kontext-pro/versions/0a138193.../api).
 * - FLUX.2: `input_images`, a list ("Maximum 8 images" on flux-2-pro,
 *   replicate.com/black-forest-labs/flux-2-pro/versions/285631b5.../api).
 * A file goes as a data URI when it is small ("only recommended if the file is less than 1MB",
 * replicate.com/docs/topics/predictions/input-files); a larger one is uploaded first and passed by its URL, as
 * replicate-javascript does with a Blob (lib/util.js transformFileInputsToReplicateFileURLs, lib/files.js createFile:
 * POST /v1/files, multipart `content` and `metadata`, then the file's `urls.get`; commit 2fd6f394).
 */

/** Below this size a file goes inline as a data URI; from it on it is uploaded (Replicate's "less than 1MB"). */
export const DATA_URI_MAX_BYTES = 1_000_000;

/** Uploads one file to Replicate and answers the URL a prediction takes it by. */
export type UploadFile = (image: InputImage) => Promise<string>;

export const dataUri = (image: InputImage): string =>
  `data:${image.contentType};base64,${Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64')}`;

/** What a prediction input takes for each image: a data URI for a small one, an uploaded file's URL otherwise. */
export async function fileInputs(images: readonly InputImage[], upload: UploadFile): Promise<string[]> {
  const refs: string[] = [];
  // One at a time: uploads are free but not instant, and a failure should stop before the rest are sent.
  for (const image of images) refs.push(image.bytes.byteLength < DATA_URI_MAX_BYTES ? dataUri(image) : await upload(image));
  return refs;
}

export const isKontext = (model: string): boolean => model.startsWith('black-forest-labs/flux-kontext-');
export const isFlux2 = (model: string): boolean => model.startsWith('black-forest-labs/flux-2-');

/** The `aspect_ratio` values FLUX.1 Kontext takes besides "match_input_image" (its API page's input schema). */
const KONTEXT_ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '4:5', '5:4', '21:9', '9:21', '2:1', '1:2'] as const;

/**
 * Kontext's ratio: "match_input_image" when the size asked for has exactly the input image's proportions (the
 * model then keeps them exactly), else the listed ratio nearest to width:height.
 */
export function kontextAspectRatio(request: ProviderRequest): string {
  const [first] = request.images ?? [];
  if (first !== undefined && request.width * first.height === request.height * first.width) return 'match_input_image';
  return nearestAspectRatio(request.width, request.height, KONTEXT_ASPECT_RATIOS);
}

/**
 * The image fields of the prediction input, by model family; none when the request has no images. Images for any
 * other model mean a catalogue entry declares inputs this adapter cannot send: an error before anything is paid.
 */
export function imageFields(model: string, refs: readonly string[]): Record<string, unknown> {
  if (refs.length === 0) return {};
  if (isKontext(model)) return { input_image: refs[0] };
  if (isFlux2(model)) return { input_images: [...refs] };
  throw new Error(`the Replicate adapter knows no input image field for ${model}`);
}
