import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadId as mainThreadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { photoPixels } from '../../test-support/photo-pixels.js';
import { renderProcedural, type RenderInput, type RenderStage } from '../providers/procedural/render.js';
import { createCpuPool } from './cpu-pool.js';

const cpu = createCpuPool({ threads: 2 });
afterAll(() => cpu.close());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const input = (overrides: Partial<RenderInput> = {}): RenderInput => ({
  prompt: 'a lighthouse on a cliff at dusk',
  seed: 7,
  width: 256,
  height: 192,
  ...overrides,
});

describe('CPU pool', () => {
  it('renders on worker threads while the event loop keeps turning', async () => {
    await cpu.render(input({ width: 16, height: 16 })); // the threads are started, so only rendering is measured
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const renders = await Promise.all([1, 2, 3, 4].map((seed) => cpu.render(input({ seed, width: 2048, height: 2048 }))));
    const elapsed = performance.now() - started;
    delay.disable();

    expect(renders.every((render) => render.threadId !== mainThreadId)).toBe(true);
    // Four renders on two threads take about two renders' time; drawing one on the event loop would stall it
    // for half of that. The loop never stalled for even a quarter: coarse, so a busy machine does not fail it.
    expect(delay.max / 1e6).toBeLessThan(elapsed / 4);
  }, 60_000);

  it('draws the same bytes as drawing and encoding on the event loop did', async () => {
    const image = renderProcedural(input());
    const before = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
      .png({ compressionLevel: 6 })
      .toBuffer();
    const [a, b] = await Promise.all([cpu.render(input()), cpu.render(input())]);
    expect(Buffer.from(a.png).equals(before)).toBe(true);
    expect(Buffer.from(b.png).equals(before)).toBe(true);
  });

  it('hands its caller every stage of the drawing, in order, before the image, and draws the same bytes', async () => {
    const scene = input({ prompt: 'a city by the lake under a full moon with stars' });
    const drawnHere: RenderStage[] = [];
    renderProcedural(scene, (stage) => drawnHere.push(stage));
    const seen: RenderStage[] = [];
    const [followed, plain] = await Promise.all([cpu.render(scene, { onStage: (stage) => seen.push(stage) }), cpu.render(scene)]);
    expect(seen).toEqual(drawnHere);
    const total = seen[0]?.total ?? 0;
    expect(seen.map((stage) => stage.done)).toEqual(Array.from({ length: total + 1 }, (_, index) => index));
    expect(seen.map((stage) => stage.stage)).toEqual(expect.arrayContaining(['sky', 'stars', 'moon', 'clouds', 'city', 'water', 'drawn']));
    expect(Buffer.from(followed.png).equals(Buffer.from(plain.png))).toBe(true);
  });

  it('hands over the stages of an edit too', async () => {
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const seen: RenderStage[] = [];
    await cpu.edit({ ...input({ width: 40, height: 30 }), image }, { onStage: (stage) => seen.push(stage) });
    expect(seen.at(0)).toMatchObject({ done: 0, stage: 'sky' });
    expect(seen.at(-1)?.stage).toBe('drawn');
  });

  it('edits an image on a worker thread, at the size asked for', async () => {
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const edited = await cpu.edit({ ...input({ width: 40, height: 30 }), image });
    expect(edited.threadId).not.toBe(mainThreadId);
    const meta = await sharp(edited.png).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format, channels: meta.channels }).toEqual({
      width: 40,
      height: 30,
      format: 'png',
      channels: 4,
    });
  });

  it('keeps a PNG byte for byte and reports its size', async () => {
    const { png } = await cpu.render(input());
    const normalized = await cpu.encode(png, { format: 'png' });
    expect(normalized.bytes).toBe(png);
    expect([normalized.width, normalized.height]).toEqual([256, 192]);
  });

  it.each(['jpeg', 'webp'] as const)('converts a %s to a PNG of the same size', async (format) => {
    const bytes = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366aa' } })
      .toFormat(format)
      .toBuffer();
    const normalized = await cpu.encode(bytes, { format: 'png' });
    expect(Array.from(normalized.bytes.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect([normalized.width, normalized.height]).toEqual([120, 80]);
    expect((await sharp(normalized.bytes).metadata()).format).toBe('png');
  });

  /** A photo-like PNG of this size, transparent in its left half when `alpha`. */
  const photo = (width: number, height: number, alpha = false) =>
    sharp(
      photoPixels(width, height, (x) => (alpha && x < width / 2 ? 0 : 255)),
      { raw: { width, height, channels: 4 } },
    )
      .png()
      .toBuffer();
  const described = async (thumbnails: readonly { side: number; bytes: Uint8Array; width: number; height: number }[] | undefined) =>
    Promise.all(
      (thumbnails ?? []).map(async ({ side, bytes, width, height }) => {
        const meta = await sharp(bytes).metadata();
        return { side, width, height, format: meta.format, decoded: [meta.width, meta.height], alpha: meta.hasAlpha };
      }),
    );

  it('makes WebP thumbnails 256 and 768 px on the long side with the encode, keeping the PNG as it is', async () => {
    const png = await photo(1600, 900);
    const encoded = await cpu.encode(png, { format: 'png', thumbnails: [256, 768] });
    expect(encoded.bytes).toBe(png);
    expect(await described(encoded.thumbnails)).toEqual([
      { side: 256, width: 256, height: 144, format: 'webp', decoded: [256, 144], alpha: false },
      { side: 768, width: 768, height: 432, format: 'webp', decoded: [768, 432], alpha: false },
    ]);
  });

  it('never enlarges: an image smaller than a side keeps its size in that thumbnail', async () => {
    const encoded = await cpu.encode(await photo(300, 200), { format: 'png', thumbnails: [256, 768] });
    expect((await described(encoded.thumbnails)).map(({ side, decoded }) => [side, ...decoded])).toEqual([
      [256, 256, 171],
      [768, 300, 200],
    ]);
  });

  it('makes thumbnails of the image as stored: flattened when it is, transparent when it stays so', async () => {
    const png = await photo(400, 300, true);
    const kept = await cpu.encode(png, { format: 'png', thumbnails: [256] });
    const flattened = await cpu.encode(png, { format: 'jpeg', thumbnails: [256] });
    expect((await described(kept.thumbnails))[0]?.alpha).toBe(true);
    expect((await described(flattened.thumbnails))[0]?.alpha).toBe(false);
    // White where the original was transparent, as the stored JPEG is.
    const { data } = await sharp(flattened.thumbnails?.[0]?.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(Array.from(data.subarray(0, 3)).every((value) => value > 245)).toBe(true);
  });

  it('still keeps a PNG whose data is cut short when asked for thumbnails, saying why it has none', async () => {
    const png = await photo(640, 480);
    const cut = png.subarray(0, Math.floor(png.length * 0.9));
    const encoded = await cpu.encode(cut, { format: 'png', thumbnails: [256, 768] });
    expect(encoded.bytes).toBe(cut);
    expect(encoded.thumbnails).toBeUndefined();
    expect(encoded.thumbnailsFailed).toMatch(/png/i);
  });

  it('makes thumbnails from the decode that verifies a file, and refuses a cut-short file as without them', async () => {
    const jpeg = await sharp(await photo(500, 1000))
      .jpeg()
      .toBuffer();
    const verified = await cpu.verify(jpeg, { maxPixels: 10_000_000, thumbnails: [256, 768] });
    expect([verified.width, verified.height]).toEqual([500, 1000]);
    expect((await described(verified.thumbnails)).map(({ format, decoded }) => [format, ...decoded])).toEqual([
      ['webp', 128, 256],
      ['webp', 384, 768],
    ]);
    expect((await cpu.verify(jpeg, { maxPixels: 10_000_000 })).thumbnails).toBeUndefined();
    const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.9));
    await expect(cpu.verify(cut, { maxPixels: 10_000_000 })).rejects.toThrow('premature end');
    await expect(cpu.verify(cut, { maxPixels: 10_000_000, thumbnails: [256, 768] })).rejects.toThrow('premature end');
    await expect(cpu.verify(jpeg, { maxPixels: 400_000, thumbnails: [256, 768] })).rejects.toThrow(/pixel limit/);
  });

  it("refuses bytes that are not an image with the decoder's own words", async () => {
    await expect(cpu.encode(new TextEncoder().encode('<html>oops</html>'), { format: 'png' })).rejects.toThrow(
      'Input buffer contains unsupported image format',
    );
  });

  it('refuses a PNG cut short', async () => {
    const { png } = await cpu.render(input());
    await expect(cpu.encode(png.subarray(0, 40), { format: 'png' })).rejects.toThrow(Error);
  });

  it('stops waiting when the caller gives up, with the reason the caller gave', async () => {
    const controller = new AbortController();
    const pending = cpu.render(input({ width: 2048, height: 2048 }), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(pending).rejects.toThrow('caller gave up');
    await expect(cpu.encode(new Uint8Array(8), { format: 'png', signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('serves callers in the order their tasks arrived: one that submits again at once does not overtake those waiting', async () => {
    const single = createCpuPool({ threads: 1 });
    try {
      const served: string[] = [];
      const bytes = photoPixels(64, 64, () => 255);
      // Each caller asks again the moment it is answered, as eight concurrent generations did.
      const caller = async (name: string) => {
        for (let round = 0; round < 4; round += 1) {
          await single.base64(bytes);
          served.push(name);
        }
      };
      await Promise.all(['a', 'b', 'c'].map(caller));
      expect(served).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
    } finally {
      await single.close();
    }
  });

  it('keeps its thread when a caller gives up on a task already running, and drops a waiting one unrun', async () => {
    const single = createCpuPool({ threads: 1 });
    try {
      const { threadId: before } = await single.render(input({ width: 16, height: 16 }));
      const running = new AbortController();
      const waiting = new AbortController();
      const first = single.render(input({ width: 2048, height: 2048 }), { signal: running.signal });
      const second = single.render(input({ width: 2048, height: 2048 }), { signal: waiting.signal });
      running.abort(new Error('caller hung up'));
      waiting.abort(new Error('caller hung up too'));
      await expect(first).rejects.toThrow('caller hung up');
      await expect(second).rejects.toThrow('caller hung up too');
      // Piscina would have ended the thread to abort the running render: the next task would run on another.
      const { threadId: after } = await single.render(input({ width: 16, height: 16 }));
      expect(after).toBe(before);
    } finally {
      await single.close();
    }
  }, 60_000);

  it('refuses work once closed, and a close before any work starts no thread', async () => {
    const pool = createCpuPool({ threads: 1 });
    await pool.close();
    await expect(pool.render(input())).rejects.toThrow('the CPU pool is closed');
    await pool.close();
  });

  it('keeps its thread between tasks, lets it go after its idle time and starts another for the next task', async () => {
    const lasting = createCpuPool({ threads: 1 });
    const pool = createCpuPool({ threads: 1, idleTimeoutMs: 50 });
    try {
      const first = await lasting.render(input({ width: 16, height: 16 }));
      const again = await lasting.render(input({ width: 16, height: 16 }));
      expect(again.threadId).toBe(first.threadId);
      const before = await pool.render(input({ width: 16, height: 16 }));
      // Timers never fire early: the thread's 50 ms ran out well before this wait did.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = await pool.render(input({ width: 16, height: 16 }));
      expect(after.threadId).not.toBe(before.threadId);
    } finally {
      await Promise.all([lasting.close(), pool.close()]);
    }
  });

  it('starts its threads when warmed, before any task, and does nothing once closed', async () => {
    const pool = createCpuPool({ threads: 1 });
    // Each thread talks to the event loop through a MessagePort of its own: one more is a thread started.
    const ports = () => process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
    const before = ports();
    pool.warm();
    expect(ports()).toBeGreaterThan(before);
    pool.warm();
    await pool.close();
    expect(() => pool.warm()).not.toThrow();
    await expect(pool.render(input())).rejects.toThrow('the CPU pool is closed');
  });

  it('ends a render still running when it closes', async () => {
    const pool = createCpuPool({ threads: 1 });
    await pool.render(input({ width: 16, height: 16 }));
    const rejected = expect(pool.render(input({ width: 2048, height: 2048 }))).rejects.toThrow('Terminating worker thread');
    await pool.close();
    await rejected;
  });

  it('decodes a small image in a lane of its own, not behind a large decode already running', async () => {
    const single = createCpuPool({ threads: 1 });
    try {
      const large = await sharp({ create: { width: 8192, height: 8192, channels: 3, background: '#6b8e23' } })
        .png()
        .toBuffer();
      const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#aa3366' } })
        .png()
        .toBuffer();
      await single.verify(small, { maxPixels: 8192 * 8192, pixels: 64 * 64 }); // the quick lane's thread is started
      const finished: string[] = [];
      const big = single.verify(large, { maxPixels: 8192 * 8192, pixels: 8192 * 8192 }).then(() => finished.push('large'));
      await single.verify(small, { maxPixels: 8192 * 8192, pixels: 64 * 64 }).then(() => finished.push('small'));
      await big;
      expect(finished).toEqual(['small', 'large']);
    } finally {
      await single.close();
    }
  }, 60_000);
});
