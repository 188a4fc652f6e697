import { describe, expect, it } from 'vitest';
import { renderProcedural, type RawImage } from './render.js';
import { buildScene } from './scene.js';

const SIZE = 192;

function render(prompt: string, seed: number, extra: { negativePrompt?: string; steps?: number; guidance?: number } = {}): RawImage {
  return renderProcedural({ prompt, seed, width: SIZE, height: SIZE, ...extra });
}

/** Mean absolute difference per channel, 0..255: about 1 is dither, 10+ is a visibly different picture. */
function meanDifference(a: RawImage, b: RawImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / a.data.length;
}

/** Mean of `measure(r, g, b)` over rows `fromRow` (inclusive) to `toRow` (exclusive). */
function meanOver(image: RawImage, fromRow: number, toRow: number, measure: (r: number, g: number, b: number) => number): number {
  let sum = 0;
  let count = 0;
  for (let y = fromRow; y < toRow; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      sum += measure(image.data[i] ?? 0, image.data[i + 1] ?? 0, image.data[i + 2] ?? 0);
      count++;
    }
  }
  return sum / count;
}

const brightness = (r: number, g: number, b: number): number => 0.2126 * r + 0.7152 * g + 0.0722 * b;

describe('renderProcedural', () => {
  it('returns raw RGB pixels of exactly the requested size', () => {
    const image = renderProcedural({ prompt: 'hills', seed: 1, width: 97, height: 41 });
    expect(image).toMatchObject({ width: 97, height: 41, channels: 3 });
    expect(image.data.length).toBe(97 * 41 * 3);
  });

  it('draws the same bytes for the same prompt, seed, size and parameters', () => {
    const input = { prompt: 'a sunset over the ocean', seed: 1234, width: 200, height: 120, steps: 6, guidance: 9, negativePrompt: 'clouds' };
    expect(renderProcedural(input).data.equals(renderProcedural({ ...input }).data)).toBe(true);
  });

  it('draws a visibly different picture for a different seed', () => {
    for (const prompt of ['a sunset over the ocean', 'snowy mountain forest at night', 'desert city at noon']) {
      expect(meanDifference(render(prompt, 1), render(prompt, 2))).toBeGreaterThan(8);
    }
  });

  it('draws a visibly different picture for a different prompt', () => {
    const prompts = ['a sunset over the ocean', 'snowy mountain forest at night', 'desert city at noon', 'a quiet valley', 'a purple nebula in space'];
    const images = prompts.map((prompt) => render(prompt, 7));
    for (let i = 0; i < images.length; i++) {
      for (let j = i + 1; j < images.length; j++) {
        const [a, b] = [images[i], images[j]];
        if (a === undefined || b === undefined) throw new Error('missing image');
        expect(meanDifference(a, b), `${prompts[i]} vs ${prompts[j]}`).toBeGreaterThan(12);
      }
    }
  });

  it('makes a night sky darker than a sunny desert at noon', () => {
    for (const seed of [1, 2, 3]) {
      const night = meanOver(render('night sky', seed), 0, SIZE, brightness);
      const noon = meanOver(render('sunny desert at noon', seed), 0, SIZE, brightness);
      expect(night).toBeLessThan(noon * 0.5);
    }
  });

  it('makes the bottom half of an ocean bluer than the bottom half of a desert', () => {
    const blueness = (r: number, _g: number, b: number): number => b - r;
    for (const seed of [1, 2, 3]) {
      const ocean = meanOver(render('the ocean at noon', seed), SIZE / 2, SIZE, blueness);
      const desert = meanOver(render('a desert at noon', seed), SIZE / 2, SIZE, blueness);
      expect(ocean).toBeGreaterThan(desert + 40);
    }
  });

  it('tints the sky toward a colour named in the prompt, more strongly with higher guidance', () => {
    const redness = (r: number, _g: number, b: number): number => r - b;
    const sky = (prompt: string, guidance?: number): number => meanOver(render(prompt, 5, { guidance }), 0, SIZE / 3, redness);
    expect(sky('a red sky at noon')).toBeGreaterThan(sky('a sky at noon') + 30);
    expect(sky('a red sky at noon', 15)).toBeGreaterThan(sky('a red sky at noon', 2) + 30);
  });

  it('leaves out the sun when the negative prompt names it, and for "no sun" in the prompt', () => {
    const prompt = 'a clear sunny meadow at noon';
    const scene = buildScene({ prompt, seed: 3 });
    const at = (image: RawImage): number => {
      const i = (Math.floor(scene.celestialY * SIZE) * SIZE + Math.floor(scene.celestialX * SIZE)) * 3;
      return Math.min(image.data[i] ?? 0, image.data[i + 1] ?? 0, image.data[i + 2] ?? 0);
    };
    const withSun = at(render(prompt, 3));
    expect(withSun).toBeGreaterThan(200);
    expect(at(render(prompt, 3, { negativePrompt: 'sun' }))).toBeLessThan(withSun - 40);
    expect(buildScene({ prompt: 'a meadow at noon with no sun', seed: 3 }).sun).toBe(false);
  });

  it('keeps the same composition when only the negative prompt changes', () => {
    const plain = buildScene({ prompt: 'mountain lake', seed: 9 });
    const negated = buildScene({ prompt: 'mountain lake', seed: 9, negativePrompt: 'clouds, trees' });
    expect(negated).toMatchObject({ celestialX: plain.celestialX, horizon: plain.horizon, noiseSeed: plain.noiseSeed, cloudCover: 0, forest: false });
  });

  it('reads steps as detail: more steps use more noise octaves', () => {
    const detail = (steps: number): number => buildScene({ prompt: 'mountains', seed: 1, steps }).detail;
    expect(detail(1)).toBeLessThan(detail(4));
    expect(detail(4)).toBeLessThan(detail(8));
    // Out-of-range steps are clamped instead of exploding the render time.
    expect(detail(1000)).toBe(detail(8));
    expect(meanDifference(render('mountains', 1, { steps: 1 }), render('mountains', 1, { steps: 8 }))).toBeGreaterThan(1);
  });

  it('rejects sizes that are not positive integers', () => {
    expect(() => renderProcedural({ prompt: 'x', seed: 1, width: 0, height: 10 })).toThrow(RangeError);
    expect(() => renderProcedural({ prompt: 'x', seed: 1, width: 10.5, height: 10 })).toThrow(RangeError);
  });

  it('handles seeds outside the 32-bit range and prompts without any keyword', () => {
    const huge = renderProcedural({ prompt: '🦄 ???', seed: Number.MAX_SAFE_INTEGER, width: 64, height: 64 });
    const negative = renderProcedural({ prompt: '', seed: -5, width: 64, height: 64 });
    expect(huge.data.length).toBe(64 * 64 * 3);
    expect(negative.data.length).toBe(64 * 64 * 3);
  });
});
