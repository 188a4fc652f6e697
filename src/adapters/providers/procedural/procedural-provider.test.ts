import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProviderProgress, ProviderRequest } from '../../../ports/image-provider.js';
import { createCpuPool } from '../../cpu/cpu-pool.js';
import { proceduralModel } from './model.js';
import { createProceduralProvider as createWithPool } from './procedural-provider.js';

// Two threads, so identical requests running side by side are drawn on different threads.
const cpu = createCpuPool({ threads: 2 });
afterAll(() => cpu.close());
const createProceduralProvider = () => createWithPool(cpu);

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { providerModel: 'procedural', prompt: 'a sunset over the ocean', width: 128, height: 96, seed: 42, ...overrides };
}

describe('procedural provider', () => {
  it('answers as the local provider the catalogue entry points at', () => {
    const provider = createProceduralProvider();
    expect(provider.id).toBe(proceduralModel.provider);
    expect(proceduralModel).toMatchObject({ id: 'local/procedural', provider_model: 'procedural', pricing: { kind: 'free' } });
  });

  it('returns a PNG', async () => {
    const image = await createProceduralProvider().generate(request());
    expect(image.contentType).toBe('image/png');
    expect(Array.from(image.bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it.each([
    [640, 384],
    [64, 64],
    [2048, 2048],
  ])('encodes a PNG that decodes to exactly %ix%i', async (width, height) => {
    const image = await createProceduralProvider().generate(request({ width, height, prompt: 'snowy mountain forest at night' }));
    const meta = await sharp(image.bytes).metadata();
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({ width, height, format: 'png' });
  });

  it('returns byte-identical PNGs for identical requests', async () => {
    const provider = createProceduralProvider();
    const full = request({ negativePrompt: 'clouds', steps: 6, guidance: 10 });
    const [a, b] = await Promise.all([provider.generate(full), provider.generate({ ...full })]);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it('reports the stages of its drawing as progress, within 0..1 and never going back, before it answers the same bytes', async () => {
    const seen: ProviderProgress[] = [];
    const provider = createProceduralProvider();
    const large = request({ width: 512, height: 512 });
    const followed = await provider.generate(large, { onProgress: (progress) => seen.push(progress) });
    const fractions = seen.map(({ fraction }) => fraction ?? Number.NaN);
    expect(fractions.every((fraction) => fraction >= 0 && fraction <= 1)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(seen[0]).toMatchObject({ fraction: 0, message: expect.stringMatching(/^drawing: sky \(1 of \d+\)$/) });
    // Encoding the PNG takes the rest of the time: the last stage told, at a third.
    expect(seen.at(-1)).toEqual({ fraction: 1 / 3, message: 'encoding the PNG' });
    expect(Buffer.from(followed.bytes).equals(Buffer.from((await provider.generate(large)).bytes))).toBe(true);
  });

  it('reports nothing for a picture drawn too quickly for anyone to see its progress', async () => {
    const seen: ProviderProgress[] = [];
    await createProceduralProvider().generate(request({ width: 256, height: 256 }), { onProgress: (progress) => seen.push(progress) });
    expect(seen).toEqual([]);
  });

  it('returns different PNGs for different seeds', async () => {
    const provider = createProceduralProvider();
    const [a, b] = await Promise.all([provider.generate(request({ seed: 1 })), provider.generate(request({ seed: 2 }))]);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(false);
  });

  it('rejects as soon as the caller gives up, without waiting for the render', async () => {
    const controller = new AbortController();
    const pending = createProceduralProvider().generate(request({ width: 2048, height: 2048 }), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    await expect(pending).rejects.toThrow('caller gave up');
    // The pool replaced the thread it stopped: the next image renders as usual.
    const image = await createProceduralProvider().generate(request());
    expect(image.contentType).toBe('image/png');
  });

  it('rejects without rendering when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(createProceduralProvider().generate(request(), { signal: controller.signal })).rejects.toThrow('caller gave up');
  });

  it('rejects with an AbortError when aborted without a reason', async () => {
    await expect(createProceduralProvider().generate(request(), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('procedural model definition', () => {
  it('keeps its defaults inside its own limits and accepts every generation parameter', () => {
    const m = proceduralModel;
    expect(m.default_width).toBeGreaterThanOrEqual(m.min_size);
    expect(m.default_width).toBeLessThanOrEqual(m.max_width);
    expect(m.default_height).toBeLessThanOrEqual(m.max_height);
    expect(m.default_steps).toBeLessThanOrEqual(m.max_steps ?? 0);
    expect([...m.parameters].sort()).toEqual(['guidance', 'height', 'negative_prompt', 'seed', 'steps', 'width']);
  });

  it('takes one image to edit, with a mask or a strength, and promises no new outputs', () => {
    expect(proceduralModel.inputs).toEqual({ max_images: 1, mask: true, strength: true });
    expect(proceduralModel.outputs).toBeUndefined();
  });
});
