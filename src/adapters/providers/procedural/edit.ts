import sharp from 'sharp';
import { blendPixels, editPixels, MAX_INPUT_PIXELS, type EditInput } from './edit-pixels.js';
import type { OnRenderStage } from './render-pixels.js';

export { DEFAULT_MASKED_STRENGTH, DEFAULT_STRENGTH, type EditInput } from './edit-pixels.js';

export interface RawRgba {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

/**
 * Decodes the input (and mask) to 8-bit sRGB RGBA with sharp, then renders at the output's size and blends
 * (editPixels, which runtimes without sharp share). When the output's size differs from the input's, the input and
 * the mask are first resized to it (stretched, so nothing is cropped; the mask with the nearest neighbour, so it gains
 * no new transparent pixels): "kept" pixels are then kept relative to that resized input. No EXIF rotation is applied,
 * so pixels line up with the mask the caller drew over the stored bytes. Deterministic for equal inputs.
 */
export async function editProcedural(input: EditInput, onStage?: OnRenderStage): Promise<RawRgba> {
  const { width, height } = input;
  const limit = input.maxInputPixels ?? MAX_INPUT_PIXELS;
  const picture = await decodeRgba(input.image, limit, width, height, 'lanczos3');
  const mask = input.mask === undefined ? undefined : await decodeRgba(input.mask, limit, width, height, 'nearest');
  const edited = editPixels(input, picture, mask, onStage);
  return { ...edited, data: asBuffer(edited.data) };
}

/** blendPixels for Buffers (see there), kept for the Node callers that compare with Buffer's `equals`. */
export function blend(picture: Buffer, render: Buffer, mask: Buffer | undefined, strength: number): Buffer {
  return asBuffer(blendPixels(picture, render, mask, strength));
}

/** A Buffer over the same memory: no copy. */
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

async function decodeRgba(bytes: Uint8Array, maxPixels: number, width: number, height: number, kernel: 'lanczos3' | 'nearest'): Promise<Buffer> {
  let image = sharp(bytes, { failOn: 'error', limitInputPixels: maxPixels });
  const meta = await image.metadata();
  if (meta.width === undefined || meta.height === undefined) throw new Error('the image to edit has no dimensions');
  if (meta.width !== width || meta.height !== height) image = image.resize(width, height, { fit: 'fill', kernel });
  const { data, info } = await image.toColourspace('srgb').ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 4 || info.width !== width || info.height !== height) throw new Error('the image to edit did not decode to RGBA at the expected size');
  return data;
}
