import sharp from 'sharp';

/** A test picture with distinct pixels everywhere (a gradient), so kept and changed pixels can be told apart. */
export async function gradientPng(width: number, height: number): Promise<Uint8Array> {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      data[at] = (x * 255) / Math.max(1, width - 1);
      data[at + 1] = (y * 255) / Math.max(1, height - 1);
      data[at + 2] = (x + y) % 256;
      data[at + 3] = 255;
    }
  }
  return new Uint8Array(await sharp(data, { raw: { width, height, channels: 4 } }).png().toBuffer());
}

/** OpenAI's mask: opaque everywhere except a fully transparent rectangle, the area to change. */
export async function maskPng(width: number, height: number, hole: { x: number; y: number; w: number; h: number }): Promise<Uint8Array> {
  const data = Buffer.alloc(width * height * 4, 255);
  for (let y = hole.y; y < hole.y + hole.h; y += 1) for (let x = hole.x; x < hole.x + hole.w; x += 1) data[(y * width + x) * 4 + 3] = 0;
  return new Uint8Array(await sharp(data, { raw: { width, height, channels: 4 } }).png().toBuffer());
}

export async function rgbaOf(bytes: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export const form = (fields: Record<string, string | Blob | readonly Blob[]>): FormData => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const part of value as readonly Blob[]) body.append(name, part, part instanceof File ? part.name : 'blob');
    else if (typeof value === 'string') body.append(name, value);
    else body.append(name, value as Blob, value instanceof File ? value.name : 'blob');
  }
  return body;
};

export const file = (bytes: Uint8Array, name: string, type = 'image/png'): File => new File([new Uint8Array(bytes)], name, { type });
