import sharp from 'sharp';

export interface NormalizedPng {
  png: Uint8Array;
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Every stored object is a PNG: a PNG is kept byte for byte, anything else (JPEG, WebP) is converted. */
export async function normalizeToPng(bytes: Uint8Array): Promise<NormalizedPng> {
  const isPng = PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
  const image = sharp(bytes, { failOn: 'error' });
  const meta = await image.metadata();
  if (meta.width === undefined || meta.height === undefined) throw new Error('provider returned an image without dimensions');
  if (isPng) return { png: bytes, width: meta.width, height: meta.height };
  const png = await image.png().toBuffer();
  return { png, width: meta.width, height: meta.height };
}
