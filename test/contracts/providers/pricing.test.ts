import { describe, expect, it } from 'vitest';
import { computeCost, estimateImageTokens, estimateInputImageTokens } from '../../../src/domain/models/pricing.js';

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
    // fal: a megapixel is 1024x1024 (fal-ai/flux-2-flex: 1024x1024 bills 1 MP, 1920x1080 bills 2)
    [1024, 1024, true, 1_048_576, 0.003],
    [1920, 1080, true, 1_048_576, 0.006],
    [1024, 768, true, 1_048_576, 0.003],
    [512, 512, true, 1_048_576, 0.003],
    [2048, 2048, true, 1_048_576, 0.012],
    [1025, 1024, true, 1_048_576, 0.006],
    [1024, 1024, false, 1_048_576, 0.003],
    [1024, 1024, true, 1_000_000, 0.006],
  ])('charges per megapixel (%ix%i, round up %s, %i px per megapixel)', (width, height, roundUp, megapixel, expected) => {
    const rule = { kind: 'per_megapixel', usd_per_megapixel: 0.003, round_up: roundUp, megapixel_px: megapixel } as const;
    expect(computeCost(rule, { width, height })).toBeCloseTo(expected, 12);
  });

  it.each([
    [1024, 1024, 0.03],
    [1920, 1080, 0.045],
    [2048, 2048, 0.075],
    [512, 512, 0.03],
  ])('charges the first megapixel its own price and each further one less (%ix%i)', (width, height, expected) => {
    const rule = { kind: 'per_megapixel', first_megapixel_usd: 0.03, usd_per_megapixel: 0.015, round_up: true, megapixel_px: 1_048_576 } as const;
    expect(computeCost(rule, { width, height })).toBeCloseTo(expected, 12);
  });

  // fal's FLUX.2 [dev] edit: $0.012 per megapixel of the result and of each input, each rounded up on its own.
  it.each([
    [[], 0.012],
    [[{ width: 1024, height: 1024 }], 0.024],
    [
      [
        { width: 1024, height: 1024 },
        { width: 2048, height: 2048 },
      ],
      0.012 + 0.012 + 4 * 0.012,
    ],
    [[{ width: 1025, height: 1024 }], 0.012 + 2 * 0.012],
  ])('charges each input image by its own started megapixels (inputs %j)', (inputs, expected) => {
    const rule = { kind: 'per_megapixel', usd_per_megapixel: 0.012, input_usd_per_megapixel: 0.012, round_up: true, megapixel_px: 1_048_576 } as const;
    expect(computeCost(rule, { width: 1024, height: 1024, inputs })).toBeCloseTo(expected, 12);
  });

  it('adds input megapixels after the first output megapixel (fal FLUX.2 [pro] edit)', () => {
    const rule = {
      kind: 'per_megapixel',
      first_megapixel_usd: 0.03,
      usd_per_megapixel: 0.015,
      input_usd_per_megapixel: 0.015,
      round_up: true,
      megapixel_px: 1_048_576,
    } as const;
    expect(
      computeCost(rule, {
        width: 1920,
        height: 1080,
        inputs: [
          { width: 1024, height: 1024 },
          { width: 512, height: 512 },
        ],
      }),
    ).toBeCloseTo(0.03 + 0.015 + 2 * 0.015, 12);
  });

  it.each([
    [1024, 1024, 25, 4 * 25 * 0.00041],
    [1920, 1080, 25, 4 * 3 * 25 * 0.00041],
    [512, 512, 10, 10 * 0.00041],
  ])('charges every output tile for every step (%ix%i, %i steps)', (width, height, steps, expected) => {
    expect(computeCost({ kind: 'per_tile_step', usd_per_tile_step: 0.00041, tile_px: 512 }, { width, height, steps })).toBeCloseTo(expected, 12);
  });

  describe('input images (Workers AI FLUX.2 model pages)', () => {
    const small = { width: 512, height: 512 };

    it('charges every started tile of each input for every step, at the input rate (FLUX.2 [dev])', () => {
      const rule = { kind: 'per_tile_step', usd_per_tile_step: 0.00041, tile_px: 512, input_usd_per_tile_step: 0.00021 } as const;
      // 4 output tiles and, for the inputs, 1 + 2 tiles (600x400 starts two), all for 25 steps.
      expect(computeCost(rule, { width: 1024, height: 1024, steps: 25, inputs: [small, { width: 600, height: 400 }] })).toBeCloseTo(
        4 * 25 * 0.00041 + 3 * 25 * 0.00021,
        12,
      );
      expect(computeCost(rule, { width: 1024, height: 1024, steps: 25 })).toBeCloseTo(4 * 25 * 0.00041, 12);
    });

    it('adds a price per started input tile to tiles and steps (FLUX.2 [klein] 4B)', () => {
      const rule = { kind: 'tiles_and_steps', usd_per_tile: 0.000287, tile_px: 512, usd_per_step: 0, input_usd_per_tile: 0.000059 } as const;
      expect(computeCost(rule, { width: 1024, height: 1024, inputs: [small, small] })).toBeCloseTo(4 * 0.000287 + 2 * 0.000059, 12);
    });

    it('adds each input image, rounded up to whole megapixels, to a first-megapixel price (FLUX.2 [klein] 9B)', () => {
      const rule = {
        kind: 'per_megapixel',
        first_megapixel_usd: 0.015,
        usd_per_megapixel: 0.002,
        megapixel_px: 1_048_576,
        round_up: true,
        input_usd_per_megapixel: 0.002,
      } as const;
      expect(computeCost(rule, { width: 1024, height: 1024, inputs: [small, small] })).toBeCloseTo(0.015 + 2 * 0.002, 12);
    });
  });

  it('charges by output size, with a default for unlisted sizes', () => {
    const rule = { kind: 'by_size', prices: { '1024x1024': 0.042, '1536x1024': 0.063 }, default_usd: 0.042 } as const;
    expect(computeCost(rule, { width: 1536, height: 1024 })).toBe(0.063);
    expect(computeCost(rule, { width: 1024, height: 1024 })).toBe(0.042);
    expect(computeCost(rule, { width: 800, height: 800 })).toBe(0.042);
  });

  describe('tokens (OpenAI gpt-image-2)', () => {
    const rule = { kind: 'tokens', quality: 'medium', usd_per_million: { text_input: 5, image_input: 8, image_output: 30, text_output: 10 } } as const;

    // The figures OpenAI's own calculator gives, as quoted in OpenAI's developer forum (community.openai.com/t/1379464).
    it.each([
      ['high', 1024, 1024, 7024],
      ['high', 1536, 1024, 5488],
      ['high', 1792, 1024, 5063],
      ['high', 3584, 2048, 12329],
    ] as const)("estimates %s quality %ix%i at %i image tokens, as OpenAI's calculator does", (quality, width, height, tokens) => {
      expect(estimateImageTokens(quality, width, height)).toBe(tokens);
    });

    it('costs the estimated image output tokens at default settings, leaving the prompt out', () => {
      expect(estimateImageTokens('medium', 1024, 1024)).toBe(1756);
      expect(computeCost(rule, { width: 1024, height: 1024 })).toBeCloseTo(1756 * 30e-6, 12);
    });

    it('estimates at the quality asked, and at its own tier for auto or none', () => {
      expect(computeCost(rule, { width: 1024, height: 1024, quality: 'low' })).toBeCloseTo(196 * 30e-6, 12);
      expect(computeCost(rule, { width: 1024, height: 1024, quality: 'high' })).toBeCloseTo(7024 * 30e-6, 12);
      expect(computeCost(rule, { width: 1024, height: 1024, quality: 'auto' })).toBe(computeCost(rule, { width: 1024, height: 1024 }));
    });

    it('adds each input image, estimated as vision input (fit 2048, shorter side 768, 170 per 512 px tile plus 85)', () => {
      expect(estimateInputImageTokens(1024, 1024)).toBe(85 + 170 * 4);
      expect(estimateInputImageTokens(1536, 1024)).toBe(85 + 170 * 6);
      const inputs = [
        { width: 1024, height: 1024 },
        { width: 80, height: 48 },
      ];
      const inputTokens = estimateInputImageTokens(1024, 1024) + estimateInputImageTokens(80, 48);
      expect(computeCost(rule, { width: 1024, height: 1024, inputs })).toBeCloseTo((1756 * 30 + inputTokens * 8) / 1e6, 12);
    });

    it('bills the input image tokens the provider reports at the image input rate', () => {
      const billed = { inputTextTokens: 12, inputImageTokens: 646, outputImageTokens: 1756, outputTextTokens: 0 };
      expect(computeCost(rule, { width: 1024, height: 1024 }, billed)).toBeCloseTo((12 * 5 + 646 * 8 + 1756 * 30) / 1e6, 12);
    });

    it('costs what the provider reports when it reports it', () => {
      const billed = { inputTextTokens: 50, inputImageTokens: 0, outputImageTokens: 1800, outputTextTokens: 20 };
      expect(computeCost(rule, { width: 1024, height: 1024 }, billed)).toBeCloseTo((50 * 5 + 1800 * 30 + 20 * 10) / 1e6, 12);
    });
  });
});
