import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { halfMaskPixels, photoPixels } from '../../test-support/photo-pixels.js';
import { createCpuPool } from '../cpu/cpu-pool.js';
import type { RenderInput, RenderStage } from '../providers/procedural/render-pixels.js';
import { decodePngRgba } from './png.js';
import { createInlineImageWork, NO_THUMBNAILS } from './inline-image-work.js';

const pool = createCpuPool({ threads: 1 });
afterAll(() => pool.close());
const inline = createInlineImageWork();

const W = 96;
const H = 64;

/** RGBA as sharp decodes it: an independent decoder, so both sides of a comparison are read the same way. */
async function pixels(bytes: Uint8Array): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

const rawPng = (data: Buffer, width: number, height: number, channels: 1 | 3 | 4 = 4): Promise<Buffer> =>
  sharp(data, { raw: { width, height, channels } }).png().toBuffer();
/** A photo-like PNG, transparent in its left half when `alpha`. */
const photo = (width = W, height = H, alpha = false): Promise<Buffer> =>
  rawPng(
    photoPixels(width, height, (x, y) => (alpha && x < width / 2 ? 0 : 128 + ((x + y) % 128))),
    width,
    height,
  );

/** Left half fully transparent (change), one column half transparent, the rest opaque (keep). */
const maskPng = (width = W, height = H): Promise<Buffer> => rawPng(halfMaskPixels(width, height), width, height);

describe('inline image work: render and edit', () => {
  it.each<RenderInput>([
    { prompt: 'a lighthouse on a cliff at dusk', seed: 7, width: 256, height: 192 },
    { prompt: 'snowy mountains at night with stars', seed: 3, width: 97, height: 41 },
    { prompt: 'a city by the sea at sunrise', seed: 11, width: 512, height: 512 },
  ])("renders a PNG that decodes to exactly the pool's pixels ($width x $height)", async (input) => {
    const [mine, theirs] = await Promise.all([inline.render(input), pool.render(input)]);
    const [a, b] = await Promise.all([pixels(mine.png), pixels(theirs.png)]);
    expect([a.width, a.height]).toEqual([input.width, input.height]);
    expect(a.data.equals(b.data)).toBe(true);
  });

  it.each([
    ['without a mask', false, undefined],
    ['without a mask at strength 0.3', false, 0.3],
    ['with a mask', true, undefined],
  ] as const)("edits a PNG %s to exactly the pool's pixels", async (_name, masked, strength) => {
    const image = await photo();
    const mask = masked ? await maskPng() : undefined;
    const input = { prompt: 'a red sunset over the ocean', seed: 5, width: W, height: H, image, mask, strength };
    const [mine, theirs] = await Promise.all([inline.edit(input), pool.edit(input)]);
    const [a, b] = await Promise.all([pixels(mine.png), pixels(theirs.png)]);
    expect(a.data.equals(b.data)).toBe(true);
  });

  it('stretches an input of another size to the size asked for, keeping the pixels the stretched mask keeps', async () => {
    const flat = await rawPng(Buffer.alloc(W * H * 4).fill(Buffer.from([10, 20, 30, 255])), W, H);
    const out = await inline.edit({ prompt: 'hills', seed: 1, width: W * 2, height: H, image: flat, mask: await maskPng() });
    const after = await pixels(out.png);
    expect([after.width, after.height]).toEqual([W * 2, H]);
    // The mask's transparent left half, stretched, is the output's left half: redrawn; the right half is kept.
    let kept = 0;
    let redrawn = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W * 2; x++) {
        const i = (y * W * 2 + x) * 4;
        const same = after.data.subarray(i, i + 4).equals(Buffer.from([10, 20, 30, 255]));
        if (x >= W && same) kept += 1;
        if (x < W && !same) redrawn += 1;
      }
    }
    expect(kept).toBe(W * H);
    expect(redrawn).toBeGreaterThan(W * H * 0.9);
  });

  it('hands its caller the same stages of the drawing as the pool does', async () => {
    const input: RenderInput = { prompt: 'a lighthouse on a cliff at dusk', seed: 7, width: 64, height: 48 };
    const mine: RenderStage[] = [];
    const theirs: RenderStage[] = [];
    await Promise.all([inline.render(input, { onStage: (stage) => mine.push(stage) }), pool.render(input, { onStage: (stage) => theirs.push(stage) })]);
    expect(mine.length).toBeGreaterThan(4);
    expect(mine).toEqual(theirs);
  });

  it('refuses a JPEG to edit, saying this runtime reads PNG only', async () => {
    const jpeg = await sharp(await photo())
      .jpeg()
      .toBuffer();
    await expect(inline.edit({ prompt: 'x', seed: 1, width: W, height: H, image: jpeg })).rejects.toThrow(/reads PNG images only/);
  });

  it('refuses an input of more pixels than the guard allows before decoding it', async () => {
    await expect(inline.edit({ prompt: 'x', seed: 1, width: W, height: H, image: await photo(), maxInputPixels: W * H - 1 })).rejects.toThrow(/pixel limit/);
  });

  it('makes the same inpaint mask as the pool, pixel for pixel', async () => {
    const mask = await maskPng();
    const [mine, theirs] = await Promise.all([inline.inpaintMask(mask), pool.inpaintMask(mask)]);
    expect((await sharp(mine).metadata()).channels).toBe(1);
    const [a, b] = await Promise.all([sharp(mine).raw().toBuffer(), sharp(theirs).raw().toBuffer()]);
    expect(a.equals(b)).toBe(true);
  });
});

describe('inline image work: encode', () => {
  it('keeps a PNG byte for byte and reports its size', async () => {
    const png = await photo(300, 200);
    const encoded = await inline.encode(png, { format: 'png' });
    expect(encoded.bytes).toBe(png);
    expect(encoded).toMatchObject({ contentType: 'image/png', extension: 'png', width: 300, height: 200 });
    expect((await inline.encode(png, { format: 'png', maxSide: 1000 })).bytes).toBe(png);
    // Nothing to flatten in an image without alpha.
    const opaque = await rawPng(photoPixels(30, 20, () => 255).subarray(0, 30 * 20 * 3), 30, 20, 3);
    expect((await inline.encode(opaque, { format: 'png', opaque: true })).bytes).toBe(opaque);
  });

  it('flattens transparency onto white when asked for an opaque image, as the pool does', async () => {
    const png = await photo(120, 80, true);
    const [mine, theirs] = await Promise.all([inline.encode(png, { format: 'png', opaque: true }), pool.encode(png, { format: 'png', opaque: true })]);
    const meta = await sharp(mine.bytes).metadata();
    expect(meta.hasAlpha).toBe(false);
    const [a, b] = await Promise.all([sharp(mine.bytes).raw().toBuffer(), sharp(theirs.bytes).raw().toBuffer()]);
    expect(Array.from(a.subarray(0, 3))).toEqual([255, 255, 255]);
    expect(a.equals(b)).toBe(true);
  });

  it('shrinks to maxSide on the long side, keeping the aspect ratio and the colours', async () => {
    const flat = await rawPng(Buffer.alloc(400 * 300 * 3).fill(Buffer.from([200, 100, 50])), 400, 300, 3);
    const encoded = await inline.encode(flat, { format: 'png', maxSide: 100 });
    expect([encoded.width, encoded.height]).toEqual([100, 75]);
    const { data, info } = await sharp(encoded.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([100, 75, 3]);
    expect(Array.from(data.subarray(0, 3))).toEqual([200, 100, 50]);
    const photoPng = await photo(400, 300);
    const [mine, theirs] = await Promise.all([
      inline.encode(photoPng, { format: 'png', maxSide: 128 }),
      pool.encode(photoPng, { format: 'png', maxSide: 128 }),
    ]);
    expect([mine.width, mine.height]).toEqual([theirs.width, theirs.height]);
  });

  it.each(['jpeg', 'webp'] as const)('refuses to make a %s, saying this runtime stores PNG only', async (format) => {
    await expect(inline.encode(await photo(), { format })).rejects.toThrow(/stores PNG images only/);
  });

  it('refuses a JPEG input, saying this runtime reads PNG only', async () => {
    const jpeg = await sharp(await photo())
      .jpeg()
      .toBuffer();
    await expect(inline.encode(jpeg, { format: 'png' })).rejects.toThrow(/reads PNG images only/);
  });

  it('stores the image without thumbnails when they are asked for, saying why', async () => {
    const png = await photo(300, 200);
    const kept = await inline.encode(png, { format: 'png', thumbnails: [256, 768] });
    expect(kept.bytes).toBe(png);
    expect(kept.thumbnails).toBeUndefined();
    expect(kept.thumbnailsFailed).toBe(NO_THUMBNAILS);
    const flattened = await inline.encode(await photo(300, 200, true), { format: 'png', opaque: true, thumbnails: [256] });
    expect(flattened.thumbnails).toBeUndefined();
    expect(flattened.thumbnailsFailed).toMatch(/not made on this runtime/);
    expect((await inline.encode(png, { format: 'png' })).thumbnailsFailed).toBeUndefined();
  });
});

/** A PNG signature and an IHDR claiming this size, and nothing after it: no pixel data at all. */
function pngHeaderOnly(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, 13);
  bytes.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24); // 8-bit RGBA, no interlace
  return bytes;
}

describe('inline image work: verify', () => {
  it('returns the size of a good PNG', async () => {
    expect(await inline.verify(await photo(300, 200), { maxPixels: 1_000_000, thumbnails: [256] })).toEqual({ width: 300, height: 200 });
  });

  it('refuses an image of more pixels than allowed from its header, before decoding it', async () => {
    const started = performance.now();
    await expect(inline.verify(pngHeaderOnly(100_000, 100_000), { maxPixels: 1_000_000 })).rejects.toThrow(/100000x100000.*pixel limit/);
    // Decoding (or allocating 40 GB for) it would take far longer, or fail with another reason.
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("refuses a PNG cut short, with the decoder's reason", async () => {
    const png = await photo(640, 480);
    await expect(inline.verify(png.subarray(0, Math.floor(png.length * 0.9)), { maxPixels: 1_000_000 })).rejects.toThrow(/cut short or corrupt/);
    await expect(inline.verify(png.subarray(0, 20), { maxPixels: 1_000_000 })).rejects.toThrow(/cut short/);
  });

  it('refuses a corrupt PNG whose checksums do not match', async () => {
    const png = new Uint8Array(await photo(64, 64));
    png[png.length - 40] = (png[png.length - 40] ?? 0) ^ 0xff;
    await expect(inline.verify(png, { maxPixels: 1_000_000 })).rejects.toThrow(/CRC/);
  });

  it('refuses a JPEG, saying this runtime reads PNG only', async () => {
    const jpeg = await sharp(await photo())
      .jpeg()
      .toBuffer();
    await expect(inline.verify(jpeg, { maxPixels: 1_000_000 })).rejects.toThrow(/reads PNG images only/);
  });
});

describe('inline image work: PNG decoding', () => {
  const rgba = photoPixels(W, H, (x, y) => 128 + ((x + y) % 128));
  it.each([
    [
      'palette with transparency',
      () =>
        sharp(rgba, { raw: { width: W, height: H, channels: 4 } })
          .png({ palette: true })
          .toBuffer(),
    ],
    [
      '8-bit grey',
      () =>
        sharp(rgba, { raw: { width: W, height: H, channels: 4 } })
          .removeAlpha()
          .toColourspace('b-w')
          .png()
          .toBuffer(),
    ],
    [
      '16-bit RGBA',
      () =>
        sharp(rgba, { raw: { width: W, height: H, channels: 4 } })
          .toColourspace('rgb16')
          .png()
          .toBuffer(),
    ],
    [
      'interlaced RGB',
      () =>
        sharp(rgba, { raw: { width: W, height: H, channels: 4 } })
          .removeAlpha()
          .png({ progressive: true })
          .toBuffer(),
    ],
  ])('decodes a %s PNG to the RGBA sharp decodes it to', async (_name, make) => {
    const png = await make();
    const expected = await pixels(png);
    const decoded = decodePngRgba(png);
    expect([decoded.width, decoded.height]).toEqual([W, H]);
    expect(Buffer.from(decoded.data).equals(expected.data)).toBe(true);
  });
});

describe('inline image work: base64 and cancelling', () => {
  it.each([0, 1, 2, 3, 4, 5, 1000, 65_537])('gives the same base64 as the pool for %i bytes', async (length) => {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff);
    const [mine, theirs] = await Promise.all([inline.base64(bytes), pool.base64(bytes)]);
    expect(Buffer.from(mine).equals(Buffer.from(theirs))).toBe(true);
  });

  it("rejects with the caller's reason when the caller already gave up", async () => {
    const signal = AbortSignal.abort(new Error('caller gave up'));
    await expect(inline.render({ prompt: 'x', seed: 1, width: 16, height: 16 }, { signal })).rejects.toThrow('caller gave up');
    await expect(inline.encode(new Uint8Array(8), { format: 'png', signal })).rejects.toThrow('caller gave up');
    await expect(inline.verify(new Uint8Array(8), { maxPixels: 1, signal })).rejects.toThrow('caller gave up');
  });

  it('runs inline, on no thread of its own', () => {
    expect(inline.threads).toBe(0);
  });
});

describe('inline image work: runtime neutrality', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  /** The source without comments, which may name Node APIs to say why they are not used. */
  const code = (file: string): string =>
    readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\s\/\/ .*$/gm, '');

  /** The module's files and every file they import at run time (type-only imports are erased), transitively. */
  function runtimeFiles(): string[] {
    const seen = new Set<string>();
    const queue = readdirSync(here)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => join(here, name));
    while (queue.length > 0) {
      const file = queue.pop();
      if (file === undefined || seen.has(file)) continue;
      seen.add(file);
      for (const match of code(file).matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gm)) {
        const specifier = match[1];
        if (specifier !== undefined) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      }
    }
    return [...seen].sort();
  }

  it('imports nothing Node-only, in its own files or the ones they load', () => {
    const files = runtimeFiles();
    expect(files.some((file) => file.endsWith('render-pixels.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('edit-pixels.ts'))).toBe(true);
    expect(files.some((file) => file.endsWith('cpu-tasks.ts') || file.endsWith('cpu-pool.ts'))).toBe(false);
    const offending = files.flatMap((file) => {
      const text = code(file);
      const found = [/from\s+'node:/, /import\(\s*'node:/, /from\s+'(sharp|piscina)'/, /\bBuffer\b/, /\bprocess\./, /\brequire\(/].filter((pattern) =>
        pattern.test(text),
      );
      return found.map((pattern) => `${file}: ${String(pattern)}`);
    });
    expect(offending).toEqual([]);
  });
});
