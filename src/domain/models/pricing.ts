import type { ImageQualityTier, PricingRule } from './types.js';

export interface PricedSettings {
  width: number;
  height: number;
  steps?: number;
  /** For models priced per quality; the rule's own tier when absent (or `auto`). */
  quality?: ImageQualityTier | 'auto';
  /** Sizes of the input images, for providers that bill them. */
  inputs?: readonly { width: number; height: number }[];
}

/** Tokens a provider reported for one image (the port's TokenUsage, restated so the domain stays port-free here). */
export interface BilledTokens {
  inputTextTokens: number;
  inputImageTokens: number;
  outputImageTokens: number;
  outputTextTokens: number;
}

/**
 * USD for one image with these settings; rounded to 1e-9 so sums stay free of float noise. For a token-billed
 * model, `billed` (what the provider reported) wins over the estimate.
 */
export function computeCost(rule: PricingRule, settings: PricedSettings, billed?: BilledTokens): number {
  switch (rule.kind) {
    case 'free':
      return 0;
    case 'per_image':
      return round(rule.usd);
    case 'tiles_and_steps':
      return round(
        tilesOf(settings, rule.tile_px) * rule.usd_per_tile +
          (settings.steps ?? 0) * rule.usd_per_step +
          inputTilesOf(settings, rule.tile_px) * (rule.input_usd_per_tile ?? 0),
      );
    case 'per_tile_step': {
      const tileSteps = (tiles: number, usd: number): number => tiles * (settings.steps ?? 0) * usd;
      return round(
        tileSteps(tilesOf(settings, rule.tile_px), rule.usd_per_tile_step) + tileSteps(inputTilesOf(settings, rule.tile_px), rule.input_usd_per_tile_step ?? 0),
      );
    }
    case 'per_megapixel': {
      const megapixelsOf = (size: { width: number; height: number }): number => {
        const exact = (size.width * size.height) / rule.megapixel_px;
        return rule.round_up ? Math.ceil(exact) : exact;
      };
      const megapixels = megapixelsOf(settings);
      const inputUsd = (settings.inputs ?? []).reduce((sum, input) => sum + megapixelsOf(input) * (rule.input_usd_per_megapixel ?? 0), 0);
      if (rule.first_megapixel_usd === undefined) return round(megapixels * rule.usd_per_megapixel + inputUsd);
      return round(rule.first_megapixel_usd + Math.max(0, megapixels - 1) * rule.usd_per_megapixel + inputUsd);
    }
    case 'by_size':
      return round(rule.prices[`${settings.width}x${settings.height}`] ?? rule.default_usd);
    case 'tokens': {
      const rates = rule.usd_per_million;
      if (billed !== undefined) {
        const usd =
          billed.inputTextTokens * rates.text_input +
          billed.inputImageTokens * rates.image_input +
          billed.outputImageTokens * rates.image_output +
          billed.outputTextTokens * rates.text_output;
        return round(usd / 1_000_000);
      }
      const tier = settings.quality === undefined || settings.quality === 'auto' ? rule.quality : settings.quality;
      const inputTokens = (settings.inputs ?? []).reduce((sum, input) => sum + estimateInputImageTokens(input.width, input.height), 0);
      return round((estimateImageTokens(tier, settings.width, settings.height) * rates.image_output + inputTokens * rates.image_input) / 1_000_000);
    }
  }
}

const tilesOf = (size: { width: number; height: number }, tilePx: number): number => Math.ceil(size.width / tilePx) * Math.ceil(size.height / tilePx);
/** Started tiles of all the input images together, each image counted on its own (as its tiles are billed). */
const inputTilesOf = (settings: PricedSettings, tilePx: number): number => (settings.inputs ?? []).reduce((sum, input) => sum + tilesOf(input, tilePx), 0);

/** OpenAI's quality factors for gpt-image-2 (see estimateImageTokens). */
const QUALITY_FACTOR: Readonly<Record<ImageQualityTier, number>> = { low: 16, medium: 48, high: 96 };

/**
 * Image output tokens OpenAI bills for one gpt-image-2 image of this size and quality. OpenAI publishes no table
 * for gpt-image-2, only a calculator in its image-generation guide (developers.openai.com/api/docs/guides/
 * image-generation#size-and-quality-options); this is the formula behind that calculator as posted in OpenAI's
 * developer forum (community.openai.com/t/1382699, 2026-06-05, read 2026-11-23). It reproduces the calculator's
 * figures quoted there: 1024x1024 high = 7024 tokens, 1536x1024 high = 5488. An estimate: the recorded cost uses
 * the tokens OpenAI reports in `usage`.
 */
export function estimateImageTokens(quality: ImageQualityTier, width: number, height: number): number {
  const factor = QUALITY_FACTOR[quality];
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const shortAxis = Math.floor((2 * factor * short + long) / (2 * long));
  return Math.ceil((factor * shortAxis * (2_000_000 + width * height)) / 4_000_000);
}

/**
 * Image input tokens for one input image, estimated the way OpenAI counts vision input: the image scaled to fit
 * 2048x2048, then its shorter side to 768, and 170 tokens per started 512 px tile plus 85. An estimate for the
 * reservation only: the recorded cost uses the `input_tokens_details.image_tokens` OpenAI reports.
 */
export function estimateInputImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorter = Math.min(1, 768 / Math.min(w, h));
  w *= shorter;
  h *= shorter;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

const round = (usd: number): number => Math.round(usd * 1e9) / 1e9;
