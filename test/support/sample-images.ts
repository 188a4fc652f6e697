import sharp from 'sharp';
import { toFile } from 'openai';
import { photoPixels } from '../../src/test-support/photo-pixels.js';

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const inside = (rect: Rect, x: number, y: number): boolean =>
  x >= rect.left && x < rect.left + rect.width && y >= rect.top && y < rect.top + rect.height;

/** An opaque picture with structure in every channel, so a kept pixel cannot match the drawing by chance. */
export function photoPng(width: number, height: number): Promise<Buffer> {
  return sharp(
    photoPixels(width, height, () => 255),
    { raw: { width, height, channels: 4 } },
  )
    .png()
    .toBuffer();
}

/** OpenAI's mask: opaque (keep) everywhere but `hole`, which is fully transparent (change). */
export function maskPng(width: number, height: number, hole: Rect): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 4, 255);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (inside(hole, x, y)) data[(y * width + x) * 4 + 3] = 0;
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

export const decodeRgba = async (bytes: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> => {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

export const pngFile = (bytes: Buffer, name: string) => toFile(bytes, name, { type: 'image/png' });
