import type { ImageParameters } from '../../ports/db/images.js';

/** Optional generation parameters a model may accept; anything else given for a model is a 400. */
export const GENERATION_PARAMETERS = ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'] as const;
export type GenerationParameter = (typeof GENERATION_PARAMETERS)[number];

/** The optional settings of one generation; the ports store the same shape as `ImageParameters`. */
export type GenerationOptions = ImageParameters;

/**
 * How a provider bills one image. Amounts are USD.
 * - `free`: no charge (the offline model, beta models, self-hosted servers).
 * - `per_image`: flat price per image.
 * - `tiles_and_steps`: Workers AI style: price per started `tile_px` x `tile_px` tile of output, plus price per diffusion step.
 * - `per_megapixel`: price per megapixel of output (1 MP = 1,000,000 pixels), each image rounded up to whole megapixels when `round_up`.
 * - `by_size`: a price per output size `WIDTHxHEIGHT` (OpenAI style); a size not listed costs `default_usd`.
 */
export type PricingRule =
  | { kind: 'free' }
  | { kind: 'per_image'; usd: number }
  | { kind: 'tiles_and_steps'; usd_per_tile: number; tile_px: number; usd_per_step: number }
  | { kind: 'per_megapixel'; usd_per_megapixel: number; round_up: boolean }
  | { kind: 'by_size'; prices: Readonly<Record<string, number>>; default_usd: number };

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
  pricing: PricingRule;
  /** Where the pricing rule comes from (a public URL). */
  pricing_source: string;
}
