import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { ProviderAccountProblem, ProviderRefusal } from '../../../ports/image-provider.js';
import type { MaskConverter } from './inpainting-mask.js';

/*
 * How Workers AI takes input images, per model family (sources in workers-ai-flux2-models.ts and
 * workers-ai-sd15-models.ts):
 * - FLUX.2 [dev] and [klein]: files named `input_image_0` .. `input_image_3` in the multipart form, each "smaller than
 *   512x512" (the changelogs of 2025-11-25, 2026-01-15 and 2026-01-28 in cloudflare/cloudflare-docs).
 * - Stable Diffusion 1.5 img2img and inpainting: the file's bytes as a JSON array of numbers, `image` and `mask`, as
 *   Cloudflare's usage example sends them; the mask white where the model may repaint.
 */

/** FLUX.2 on Workers AI: four reference images at most, each at most 512 px a side. */
export const FLUX2_MAX_IMAGES = 4;
export const FLUX2_MAX_INPUT_SIDE = 512;

/**
 * The form FLUX.2 takes: every field as text, then the reference images as files (with their type and name, as
 * curl's `--form input_image_0=@photo.png` sends them). An image over the documented size is refused before any
 * call, so the caller hears why rather than whatever Workers AI would make of it.
 */
export function multipartBody(fields: Record<string, string | number>, images: readonly InputImage[]): FormData {
  if (images.length > FLUX2_MAX_IMAGES) throw new ProviderRefusal(`Workers AI FLUX.2 takes at most ${FLUX2_MAX_IMAGES} input images, not ${images.length}`);
  const tooLarge = images.findIndex((image) => image.width > FLUX2_MAX_INPUT_SIDE || image.height > FLUX2_MAX_INPUT_SIDE);
  if (tooLarge >= 0) {
    const image = images[tooLarge];
    throw new ProviderRefusal(
      `Workers AI FLUX.2 takes input images of at most ${FLUX2_MAX_INPUT_SIDE}x${FLUX2_MAX_INPUT_SIDE} pixels; image ${tooLarge} is ${image?.width}x${image?.height}`,
    );
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, String(value));
  images.forEach((image, index) => form.set(`input_image_${index}`, new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.filename));
  return form;
}

/**
 * Stable Diffusion 1.5's `image` (the first input, the one edited) and `mask` (converted to white = repaint), both
 * as bytes; none for a text-only request.
 */
export async function sdImageFields(
  request: ProviderRequest,
  convertMask: MaskConverter | undefined,
  signal?: AbortSignal,
): Promise<Record<string, Uint8Array>> {
  const fields: Record<string, Uint8Array> = {};
  const [image] = request.images ?? [];
  if (image !== undefined) fields.image = image.bytes;
  if (request.mask !== undefined) {
    if (convertMask === undefined) {
      throw new ProviderAccountProblem(
        'Workers AI inpainting needs its mask converted on the CPU pool, and this build gives the adapter no converter (convertMask in src/providers.ts)',
      );
    }
    fields.mask = await convertMask(request.mask, signal);
  }
  return fields;
}

/**
 * The JSON text of `fields` with each byte array spliced in as `[137,80,...]`: `Array.from` on a few megabytes
 * would first build, then stringify, millions of array elements on the event loop.
 */
export function jsonBody(fields: Record<string, string | number>, bytes: Record<string, Uint8Array>): string {
  const head = JSON.stringify(fields);
  const arrays = Object.entries(bytes).map(([name, value]) => `${JSON.stringify(name)}:[${value.join(',')}]`);
  if (arrays.length === 0) return head;
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}${arrays.join(',')}}`;
}
