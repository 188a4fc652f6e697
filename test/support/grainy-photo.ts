import sharp, { type Sharp } from 'sharp';

/**
 * Raw RGB pixels that compress like a photograph: smooth waves of colour with grain on every pixel (a seeded
 * generator, so a test sees the same file every run). A flat or regular picture would compress to a few kilobytes
 * and could not stand in for a camera's file.
 */
export function grainyPixels(width: number, height: number, seed = 7): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let state = seed >>> 0;
  const grain = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return ((state >>> 24) - 128) / 6;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = clamp(128 + 90 * Math.sin(x / 37 + y / 53) + grain());
      data[i + 1] = clamp(128 + 80 * Math.cos(y / 29 - x / 71) + grain());
      data[i + 2] = clamp(128 + 70 * Math.sin((x + y) / 97) + grain());
    }
  }
  return data;
}

const clamp = (value: number): number => Math.max(0, Math.min(255, Math.round(value)));

/** The grainy picture as sharp input, to encode in any format (1200x900 as PNG is about 3.1 MB). */
export const grainyPhoto = (width: number, height: number, seed?: number): Sharp =>
  sharp(grainyPixels(width, height, seed), { raw: { width, height, channels: 3 } });
