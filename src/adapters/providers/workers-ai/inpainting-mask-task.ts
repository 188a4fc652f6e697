/**
 * Runs inside a CPU-pool worker thread (src/adapters/cpu/cpu-tasks.ts), never on the event loop: it decodes and
 * encodes a whole image. The Workers AI adapter never imports this module; it is handed a MaskConverter instead.
 */
import sharp from 'sharp';
import { repaintWhereTransparent } from './inpainting-mask.js';

/**
 * An imagegate mask (PNG or WebP, transparent = change) as the white-on-black PNG Stable Diffusion inpainting
 * reads, same size. `ensureAlpha` gives every mask four channels, so one without alpha comes out all black (keep).
 */
export async function inpaintingMaskPng(mask: Uint8Array): Promise<Uint8Array> {
  const { data, info } = await sharp(mask, { failOn: 'error' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const grey = repaintWhereTransparent({ data, width: info.width, height: info.height, channels: info.channels });
  // b-w, or libvips writes the single channel out as RGB: a grey PNG is a third of the bytes sent as a JSON array.
  const png = await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } }).toColourspace('b-w').png({ compressionLevel: 6 }).toBuffer();
  return new Uint8Array(png);
}
