import type { ModelDefinition } from '../types.js';

/*
 * Replicate's official FLUX models, called as `POST /v1/models/{owner}/{name}/predictions`.
 *
 * Sources (stored copies read 2026-11-23):
 * - Pricing: https://replicate.com/black-forest-labs/flux-schnell and https://replicate.com/black-forest-labs/flux-dev
 *   ("$0.003 / image" and "$0.025 / image"; official models bill per output image, see https://replicate.com/pricing).
 *   The stored copies of these pages were third-party summaries of them; the figures agree with each other.
 * - Inputs: replicate/cog-flux predict.py (the source of both models): aspect_ratio (11 values), seed,
 *   num_inference_steps (schnell 1-4, default 4; dev 1-50, default 28), guidance (dev only, 0-10, default 3),
 *   output_format (webp, jpg, png), megapixels ("1" or "0.25").
 *
 * FLUX on Replicate takes an aspect ratio, not a pixel size: the adapter sends the ratio nearest to
 * width:height, and the image records the size FLUX made (at 1 megapixel: 1:1 is 1024x1024, 16:9 is
 * 1344x768, 9:21 is 640x1536). Negative prompts are not supported by FLUX.
 */

export const replicateModels: readonly ModelDefinition[] = [
  {
    id: 'replicate/black-forest-labs/flux-schnell',
    name: 'FLUX.1 [schnell] on Replicate',
    provider: 'replicate',
    provider_model: 'black-forest-labs/flux-schnell',
    description: 'Black Forest Labs FLUX.1 schnell on Replicate: good images in 1-4 steps; width:height picks the nearest of 11 aspect ratios at about 1 megapixel.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 2,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 2048,
    max_height: 2048,
    default_steps: 4,
    max_steps: 4,
    parameters: ['width', 'height', 'seed', 'steps'],
    pricing: { kind: 'per_image', usd: 0.003 },
    pricing_source: 'https://replicate.com/black-forest-labs/flux-schnell',
  },
  {
    id: 'replicate/black-forest-labs/flux-dev',
    name: 'FLUX.1 [dev] on Replicate',
    provider: 'replicate',
    provider_model: 'black-forest-labs/flux-dev',
    description: 'Black Forest Labs FLUX.1 dev on Replicate: higher detail and prompt fidelity than schnell with 28 steps by default; width:height picks the nearest of 11 aspect ratios.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 8,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 2048,
    max_height: 2048,
    default_steps: 28,
    max_steps: 50,
    parameters: ['width', 'height', 'seed', 'steps', 'guidance'],
    pricing: { kind: 'per_image', usd: 0.025 },
    pricing_source: 'https://replicate.com/black-forest-labs/flux-dev',
  },
];
