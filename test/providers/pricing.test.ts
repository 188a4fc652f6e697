import { describe, expect, it } from 'vitest';
import { computeCost } from '../../src/domain/models/pricing.js';

describe('computeCost', () => {
  it('charges nothing for a free model', () => {
    expect(computeCost({ kind: 'free' }, { width: 2048, height: 2048, steps: 50 })).toBe(0);
  });

  it('charges a flat price per image whatever the size', () => {
    expect(computeCost({ kind: 'per_image', usd: 0.003 }, { width: 512, height: 512 })).toBe(0.003);
    expect(computeCost({ kind: 'per_image', usd: 0.003 }, { width: 1440, height: 1440 })).toBe(0.003);
  });

  it.each([
    [512, 512, 4, 1 * 0.0000528 + 4 * 0.0001056],
    [1024, 1024, 4, 4 * 0.0000528 + 4 * 0.0001056],
    [1024, 768, 8, 4 * 0.0000528 + 8 * 0.0001056],
    [513, 512, 1, 2 * 0.0000528 + 1 * 0.0001056],
  ])('charges started 512px tiles plus steps (%ix%i, %i steps)', (width, height, steps, expected) => {
    const rule = { kind: 'tiles_and_steps', usd_per_tile: 0.0000528, tile_px: 512, usd_per_step: 0.0001056 } as const;
    expect(computeCost(rule, { width, height, steps })).toBeCloseTo(expected, 12);
  });

  it.each([
    [1024, 1024, true, 0.006],
    [512, 512, true, 0.003],
    [1024, 1024, false, 0.003145728],
    [2048, 2048, true, 0.015],
  ])('charges per megapixel (%ix%i, round up %s)', (width, height, roundUp, expected) => {
    expect(computeCost({ kind: 'per_megapixel', usd_per_megapixel: 0.003, round_up: roundUp }, { width, height })).toBeCloseTo(expected, 12);
  });

  it('charges by output size, with a default for unlisted sizes', () => {
    const rule = { kind: 'by_size', prices: { '1024x1024': 0.042, '1536x1024': 0.063 }, default_usd: 0.042 } as const;
    expect(computeCost(rule, { width: 1536, height: 1024 })).toBe(0.063);
    expect(computeCost(rule, { width: 1024, height: 1024 })).toBe(0.042);
    expect(computeCost(rule, { width: 800, height: 800 })).toBe(0.042);
  });
});
