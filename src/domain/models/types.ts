import type { ImageParameters } from '../../ports/db/images.js';

/** Optional generation parameters a model may accept; anything else given for a model is a 400. */
export const GENERATION_PARAMETERS = ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'] as const;
export type GenerationParameter = (typeof GENERATION_PARAMETERS)[number];

/** The optional settings of one generation; the ports store the same shape as `ImageParameters`. */
export type GenerationOptions = ImageParameters;

/**
 * How a provider bills one image, exactly as it bills it. Amounts are USD.
 * - `free`: no charge (the offline model, beta models, self-hosted servers).
 * - `per_image`: flat price per image.
 * - `tiles_and_steps`: Workers AI style: price per started `tile_px` x `tile_px` tile of output, plus price per diffusion step;
 *   `input_usd_per_tile` prices each started tile of every input image too (Workers AI FLUX.2 [klein] 4B).
 * - `per_tile_step`: price per started output tile for every step (tiles x steps x price; Workers AI FLUX.2 [dev]);
 *   `input_usd_per_tile_step` prices each started tile of every input image for every step as well.
 * - `per_megapixel`: price per megapixel of output, where a megapixel is `megapixel_px` pixels (fal and Black Forest
 *   Labs count 1024x1024 = 1,048,576), each image rounded up to whole megapixels when `round_up`; with
 *   `first_megapixel_usd` the first megapixel costs that and each further one `usd_per_megapixel`.
 * - `by_size`: a price per output size `WIDTHxHEIGHT` (the old OpenAI style); a size not listed costs `default_usd`.
 * - `tokens`: billed per million tokens (OpenAI GPT image models). The cost recorded for an image uses the tokens the
 *   provider reports; before that (and for `cost_per_image`) the image output tokens are estimated from the size at
 *   `quality` with OpenAI's own calculator formula (see estimateImageTokens), and the prompt's few text tokens are left out.
 */
export type PricingRule =
  | { kind: 'free' }
  | { kind: 'per_image'; usd: number }
  | { kind: 'tiles_and_steps'; usd_per_tile: number; tile_px: number; usd_per_step: number; input_usd_per_tile?: number }
  | { kind: 'per_tile_step'; usd_per_tile_step: number; tile_px: number; input_usd_per_tile_step?: number }
  | {
      kind: 'per_megapixel';
      usd_per_megapixel: number;
      round_up: boolean;
      megapixel_px: number;
      first_megapixel_usd?: number;
      /** Input images billed per megapixel too (fal's and Replicate's FLUX.2 edits, Workers AI klein 9B), each rounded as the output is. */
      input_usd_per_megapixel?: number;
    }
  | { kind: 'by_size'; prices: Readonly<Record<string, number>>; default_usd: number }
  | {
      kind: 'tokens';
      quality: ImageQualityTier;
      usd_per_million: { text_input: number; image_input: number; image_output: number; text_output: number };
    };

/** OpenAI's `quality` levels for GPT image models. */
export type ImageQualityTier = 'low' | 'medium' | 'high';

/**
 * Sizes a model makes beyond a plain width/height range: each side a multiple of `multiple_of`, the pixel count
 * within [`min_pixels`, `max_pixels`], and the longer side at most `max_aspect_ratio` times the shorter.
 */
export interface SizeRule {
  multiple_of?: number;
  min_pixels?: number;
  max_pixels?: number;
  max_aspect_ratio?: number;
}

/**
 * The images a model takes in. `max_images` 0 is a text-only model; `mask` means it inpaints from a mask
 * (OpenAI semantics: transparent = change); `strength` means it does image-to-image with a strength 0..1.
 */
export interface ModelInputs {
  max_images: number;
  mask: boolean;
  strength: boolean;
  /** OpenAI's `input_fidelity` (how closely an edit keeps faces and details of the input). */
  input_fidelity?: boolean;
}

export const TEXT_ONLY: ModelInputs = { max_images: 0, mask: false, strength: false };

/** Formats the service stores; it converts whatever the provider answers. */
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a model can be asked for beyond its size: the service honours each or refuses it, never ignores it. */
export interface ModelOutputs {
  /** Every model: the service converts the provider's image. */
  formats: readonly OutputFormat[];
  /** The model can draw on a transparent background (`background: transparent`). */
  transparent_background: boolean;
  /** Quality levels the model takes (`quality`); empty when its quality is fixed. `auto` is always accepted. */
  quality: readonly ImageQualityTier[];
  /** Partial images while it draws (`stream` with `partial_images` on /v1). */
  partial_images: boolean;
}

export type Speed = 'fast' | 'medium' | 'slow';
export type Quality = 'draft' | 'standard' | 'high';

export interface ModelDefinition {
  /** Public identifier, used in `model` and `/api/models/:id`, e.g. `@cf/black-forest-labs/flux-1-schnell`. */
  id: string;
  /** Display name. */
  name: string;
  /** Provider id; must match an ImageProvider's `id`. */
  provider: string;
  /** The provider's own name for the model, sent on the wire. */
  provider_model: string;
  description: string;
  speed: Speed;
  quality: Quality;
  /** Typical seconds per image at default settings. */
  typical_seconds: number;
  default_width: number;
  default_height: number;
  min_size: number;
  max_width: number;
  max_height: number;
  /**
   * The exact output sizes (`WIDTHxHEIGHT`) the provider accepts, for providers that take a size from a fixed
   * list (OpenAI). When set, width x height must be one of them.
   */
  sizes?: readonly string[];
  /** Steps used when the caller gives none (undefined when the model has no step parameter). */
  default_steps?: number;
  max_steps?: number;
  /** Which optional parameters the model accepts. */
  parameters: readonly GenerationParameter[];
  /** Further limits on width x height (multiples, pixel count, aspect ratio). */
  size_rule?: SizeRule;
  pricing: PricingRule;
  /** Where the pricing rule comes from (a public URL). */
  pricing_source: string;
  /** When the provider announced the model's retirement (YYYY-MM-DD); generating still works, with a warning. */
  deprecated_at?: string;
  /** From this day (YYYY-MM-DD, UTC) the provider no longer serves the model: it stays readable, generating is refused. */
  shutdown_at?: string;
  /** The catalogue id to use instead, once deprecated or shut down. */
  replacement?: string;
  /** The images the model takes in; text-only when absent. */
  inputs?: ModelInputs;
  /** Options beyond size; none when absent (the formats are always all three). */
  outputs?: Partial<Omit<ModelOutputs, 'formats'>>;
}
