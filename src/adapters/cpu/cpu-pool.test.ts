import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadId as mainThreadId } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { renderProcedural, type RenderInput } from '../providers/procedural/render.js';
import { createCpuPool } from './cpu-pool.js';

const cpu = createCpuPool({ threads: 2 });
afterAll(() => cpu.close());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const input = (overrides: Partial<RenderInput> = {}): RenderInput => ({ prompt: 'a lighthouse on a cliff at dusk', seed: 7, width: 256, height: 192, ...overrides });

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
    const before = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).png({ compressionLevel: 6 }).toBuffer();
    const [a, b] = await Promise.all([cpu.render(input()), cpu.render(input())]);
    expect(Buffer.from(a.png).equals(before)).toBe(true);
    expect(Buffer.from(b.png).equals(before)).toBe(true);
  });

  it('edits an image on a worker thread, at the size asked for', async () => {
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } }).jpeg().toBuffer();
    const edited = await cpu.edit({ ...input({ width: 40, height: 30 }), image });
    expect(edited.threadId).not.toBe(mainThreadId);
    const meta = await sharp(edited.png).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format, channels: meta.channels }).toEqual({ width: 40, height: 30, format: 'png', channels: 4 });
  });

  it('keeps a PNG byte for byte and reports its size', async () => {
    const { png } = await cpu.render(input());
    const normalized = await cpu.encode(png, { format: 'png' });
    expect(normalized.bytes).toBe(png);
    expect([normalized.width, normalized.height]).toEqual([256, 192]);
  });

  it.each(['jpeg', 'webp'] as const)('converts a %s to a PNG of the same size', async (format) => {
    const bytes = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#3366aa' } }).toFormat(format).toBuffer();
    const normalized = await cpu.encode(bytes, { format: 'png' });
    expect(Array.from(normalized.bytes.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect([normalized.width, normalized.height]).toEqual([120, 80]);
    expect((await sharp(normalized.bytes).metadata()).format).toBe('png');
  });

  it("refuses bytes that are not an image with the decoder's own words", async () => {
    await expect(cpu.encode(new TextEncoder().encode('<html>oops</html>'), { format: 'png' })).rejects.toThrow('Input buffer contains unsupported image format');
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

  it('refuses work once closed, and a close before any work starts no thread', async () => {
    const pool = createCpuPool({ threads: 1 });
    await pool.close();
    await expect(pool.render(input())).rejects.toThrow('the CPU pool is closed');
    await pool.close();
  });

  it('ends a render still running when it closes', async () => {
    const pool = createCpuPool({ threads: 1 });
    await pool.render(input({ width: 16, height: 16 }));
    const rejected = expect(pool.render(input({ width: 2048, height: 2048 }))).rejects.toThrow('Terminating worker thread');
    await pool.close();
    await rejected;
  });
});
