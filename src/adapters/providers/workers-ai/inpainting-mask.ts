import type { InputImage } from '../../../ports/image-provider.js';

/**
 * Turns imagegate's mask (OpenAI's convention: a fully transparent pixel marks the area to change) into the one
 * Stable Diffusion inpainting reads (runwayml/stable-diffusion-inpainting: white is repainted, black is kept).
 * Needs the mask's pixels, so decoding happens elsewhere (off the event loop); the adapter is given it as a function.
 */
export type MaskConverter = (mask: InputImage, signal?: AbortSignal) => Promise<Uint8Array>;

/** Decoded pixels, row after row, `channels` bytes each (libvips' raw output). */
export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/**
 * One grey byte per pixel: 255 (repaint) where the mask is fully transparent, 0 (keep) everywhere else, partly
 * transparent pixels included, since OpenAI changes only the fully transparent ones. Alpha is the last channel of
 * two (grey + alpha) or four (RGBA); a mask without alpha keeps everything.
 */
export function repaintWhereTransparent(pixels: RawPixels): Uint8Array<ArrayBuffer> {
  const { data, width, height, channels } = pixels;
  if (!Number.isInteger(channels) || channels < 1 || channels > 4) throw new Error(`a mask has 1 to 4 channels, not ${channels}`);
  const count = width * height;
  if (data.length !== count * channels) throw new Error(`a ${width}x${height} mask with ${channels} channels has ${count * channels} bytes, not ${data.length}`);
  const grey = new Uint8Array(count);
  if (channels !== 2 && channels !== 4) return grey;
  for (let pixel = 0, alpha = channels - 1; pixel < count; pixel += 1, alpha += channels) {
    if (data[alpha] === 0) grey[pixel] = 255;
  }
  return grey;
}
