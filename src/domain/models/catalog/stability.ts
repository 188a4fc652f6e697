import type { ModelDefinition } from '../types.js';

/*
 * Stability AI's Stable Image API (v2beta): `POST /v2beta/stable-image/generate/{core|ultra|sd3}`.
 *
 * Sources (stored copies read 2026-11-23; Stability's own pages were not among them, so these come from
 * copies of its API reference in client libraries and from pricing summaries that agree with each other):
 * - Pricing: https://platform.stability.ai/pricing, in credits at $0.01 each ($10 buys 1,000 credits):
 *   Core 3 credits, Ultra 8, SD 3.5 Large 6.5, SD 3.5 Large Turbo 4, SD 3.5 Medium 3.5; charged per image
 *   whatever its size.
 * - Request fields: https://platform.stability.ai/docs/api-reference#tag/Generate: prompt, negative_prompt,
 *   aspect_ratio (16:9 1:1 21:9 2:3 3:2 4:5 5:4 9:16 9:21), seed (0..4294967294), output_format; the sd3
 *   service adds model (sd3.5-large, the default, sd3.5-large-turbo, sd3.5-medium) and cfg_scale (1..10).
 *
 * Stability takes an aspect ratio, not a pixel size: the adapter sends the ratio nearest to width:height and
 * the image records the size Stability made (Core about 1.5 megapixels, Ultra and SD 3.5 about 1).
 * Turbo is left without a negative prompt: the API reference copies disagree on whether it takes one.
 */

const PRICING = 'https://platform.stability.ai/pricing';

const common = {
  provider: 'stability',
  default_width: 1024,
  default_height: 1024,
  min_size: 256,
  max_width: 2048,
  max_height: 2048,
  pricing_source: PRICING,
} as const;

export const stabilityModels: readonly ModelDefinition[] = [
  {
    ...common,
    id: 'stability/core',
    name: 'Stable Image Core',
    provider_model: 'core',
    description: "Stability AI's fast, low-cost service: 1.5 megapixel images without prompt engineering; width:height picks the nearest of 9 aspect ratios.",
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 4,
    parameters: ['width', 'height', 'seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.03 },
  },
  {
    ...common,
    id: 'stability/ultra',
    name: 'Stable Image Ultra',
    provider_model: 'ultra',
    description: "Stability AI's highest-quality photorealistic service (built on SD 3.5 Large); width:height picks the nearest of 9 aspect ratios.",
    speed: 'medium',
    quality: 'high',
    typical_seconds: 10,
    parameters: ['width', 'height', 'seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.08 },
  },
  {
    ...common,
    id: 'stability/sd3.5-large',
    name: 'Stable Diffusion 3.5 Large',
    provider_model: 'sd3.5-large',
    description: 'Stable Diffusion 3.5 Large (8B) through the sd3 service: strong prompt adherence, guidance as cfg_scale 1-10.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 8,
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'guidance'],
    pricing: { kind: 'per_image', usd: 0.065 },
  },
  {
    ...common,
    id: 'stability/sd3.5-large-turbo',
    name: 'Stable Diffusion 3.5 Large Turbo',
    provider_model: 'sd3.5-large-turbo',
    description: 'A distilled SD 3.5 Large that draws in a few steps: faster and cheaper, slightly less detail.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 4,
    parameters: ['width', 'height', 'seed', 'guidance'],
    pricing: { kind: 'per_image', usd: 0.04 },
  },
  {
    ...common,
    id: 'stability/sd3.5-medium',
    name: 'Stable Diffusion 3.5 Medium',
    provider_model: 'sd3.5-medium',
    description: 'Stable Diffusion 3.5 Medium (2.5B): the cheapest SD 3.5, good for drafts and iteration.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 5,
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'guidance'],
    pricing: { kind: 'per_image', usd: 0.035 },
  },
];
