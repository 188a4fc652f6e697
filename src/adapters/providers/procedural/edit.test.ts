import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputImage, ProviderRequest } from '../../../ports/image-provider.js';
import { halfMaskPixels, photoPixels } from '../../../test-support/photo-pixels.js';
import { createCpuPool } from '../../cpu/cpu-pool.js';
import { blend } from './edit.js';
import { createProceduralProvider } from './procedural-provider.js';
import { renderProcedural } from './render.js';

const cpu = createCpuPool({ threads: 1 });
afterAll(() => cpu.close());
const provider = createProceduralProvider(cpu);

const W = 96;
const H = 64;

/** A picture with structure in every channel, alpha included, so a kept pixel cannot match by chance. */
const photo = (): Buffer => photoPixels(W, H, (x, y) => 128 + ((x + y) % 128));

const encode = (data: Buffer, width: number, height: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Buffer> =>
  sharp(data, { raw: { width, height, channels: 4 } })
    .toFormat(format)
    .toBuffer();

/** The left half of the mask is fully transparent (edit), one column is half transparent, the rest opaque (keep). */
const maskPng = (width = W, height = H): Promise<Buffer> => encode(halfMaskPixels(width, height), width, height);

const input = (bytes: Buffer, contentType: string, width = W, height = H, filename = 'image-0.png'): InputImage => ({
  bytes,
  contentType,
  width,
  height,
  filename,
});

const decodeRgba = async (bytes: Uint8Array): Promise<{ data: Buffer; width: number; height: number }> => {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { providerModel: 'procedural', prompt: 'a red sunset over the ocean', width: W, height: H, seed: 5, ...overrides };
}

/** Counts pixels by whether the mask keeps them, and how many of each kind differ from `before`. */
function compare(before: Buffer, after: Buffer, mask: Buffer): { keptChanged: number; edited: number; editedChanged: number } {
  let keptChanged = 0;
  let edited = 0;
  let editedChanged = 0;
  for (let i = 0; i < before.length; i += 4) {
    const same = before.subarray(i, i + 4).equals(after.subarray(i, i + 4));
    if (mask[i + 3] === 0) {
      edited += 1;
      if (!same) editedChanged += 1;
    } else if (!same) keptChanged += 1;
  }
  return { keptChanged, edited, editedChanged };
}

describe('procedural edit with a mask', () => {
  it('keeps every pixel outside the transparent area byte for byte and redraws most of those inside', async () => {
    const png = await encode(photo(), W, H);
    const mask = await maskPng();
    const out = await provider.generate(request({ images: [input(png, 'image/png')], mask: input(mask, 'image/png', W, H, 'mask.png') }));
    expect(out.contentType).toBe('image/png');
    const [before, after, maskPixels] = await Promise.all([decodeRgba(png), decodeRgba(out.bytes), decodeRgba(mask)]);
    expect([after.width, after.height]).toEqual([W, H]);
    const counts = compare(before.data, after.data, maskPixels.data);
    // The half-transparent column is kept too: only alpha 0 marks the area to change.
    expect(counts.keptChanged).toBe(0);
    expect(counts.edited).toBe((W / 2) * H);
    expect(counts.editedChanged).toBeGreaterThan(counts.edited * 0.9);
  });

  it('edits a JPEG, keeping its decoded pixels outside the transparent area', async () => {
    const jpeg = await encode(photo(), W, H, 'jpeg');
    const mask = await maskPng();
    const out = await provider.generate(
      request({ images: [input(jpeg, 'image/jpeg', W, H, 'image-0.jpg')], mask: input(mask, 'image/png', W, H, 'mask.png') }),
    );
    const [before, after, maskPixels] = await Promise.all([decodeRgba(jpeg), decodeRgba(out.bytes), decodeRgba(mask)]);
    expect([after.width, after.height]).toEqual([W, H]);
    const counts = compare(before.data, after.data, maskPixels.data);
    expect(counts.keptChanged).toBe(0);
    expect(counts.editedChanged).toBeGreaterThan(counts.edited * 0.9);
  });

  it('resizes the input and the mask to a requested size, keeping pixels relative to the resized input', async () => {
    const png = await encode(photo(), W, H);
    const mask = await maskPng();
    const out = await provider.generate(
      request({ width: W * 2, height: H, images: [input(png, 'image/png')], mask: input(mask, 'image/png', W, H, 'mask.png') }),
    );
    const after = await decodeRgba(out.bytes);
    expect([after.width, after.height]).toEqual([W * 2, H]);
    const resized = await decodeRgba(
      await sharp(png)
        .resize(W * 2, H, { fit: 'fill' })
        .png()
        .toBuffer(),
    );
    const resizedMask = await decodeRgba(
      await sharp(mask)
        .resize(W * 2, H, { fit: 'fill', kernel: 'nearest' })
        .png()
        .toBuffer(),
    );
    expect(compare(resized.data, after.data, resizedMask.data).keptChanged).toBe(0);
  });
});

describe('procedural edit without a mask', () => {
  const edit = async (strength: number | undefined, prompt = 'snowy mountains at night') => {
    const png = await encode(photo(), W, H);
    const out = await provider.generate(request({ prompt, images: [input(png, 'image/png')], strength }));
    return { before: await decodeRgba(png), after: await decodeRgba(out.bytes), bytes: out.bytes };
  };

  it("gives back the input's pixels at strength 0", async () => {
    const { before, after } = await edit(0);
    expect(after.data.equals(before.data)).toBe(true);
  });

  it("gives the render's pixels, opaque, at strength 1", async () => {
    const { after } = await edit(1);
    const render = renderProcedural({ prompt: 'snowy mountains at night', seed: 5, width: W, height: H });
    const opaque = Buffer.alloc(W * H * 4, 255);
    for (let p = 0; p < W * H; p++) render.data.copy(opaque, p * 4, p * 3, p * 3 + 3);
    expect(after.data.equals(opaque)).toBe(true);
  });

  it('blends the whole picture by 0.6 when no strength is given, so the input still shows', async () => {
    const { before, after } = await edit(undefined);
    const render = renderProcedural({ prompt: 'snowy mountains at night', seed: 5, width: W, height: H });
    expect(after.data.equals(blend(before.data, render.data, undefined, 0.6))).toBe(true);
    expect(after.data.equals(before.data)).toBe(false);
  });

  it('returns byte-identical PNGs for identical edits, and leaves the caller its buffers', async () => {
    const png = await encode(photo(), W, H);
    const image = input(png, 'image/png');
    const [a, b] = await Promise.all([
      provider.generate(request({ images: [image], strength: 0.3 })),
      provider.generate(request({ images: [image], strength: 0.3 })),
    ]);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(image.bytes.byteLength).toBe(png.byteLength);
  });

  it('refuses an input of more pixels than the guard allows before decoding it', async () => {
    const png = await encode(photo(), W, H);
    await expect(cpu.edit({ prompt: 'x', seed: 1, width: W, height: H, image: png, maxInputPixels: W * H - 1 })).rejects.toThrow(/pixel limit/i);
  });
});
