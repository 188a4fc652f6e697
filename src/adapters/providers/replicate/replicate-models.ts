import type { ModelDefinition } from '../../../domain/models/types.js';

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
 * FLUX.1 schnell and dev on Replicate take an aspect ratio, not a pixel size: the adapter sends the ratio nearest
 * to width:height, and the image records the size FLUX made (at 1 megapixel: 1:1 is 1024x1024, 16:9 is
 * 1344x768, 9:21 is 640x1536). Negative prompts are not supported by FLUX. Both have `go_fast` (on by default,
 * non-deterministic even with a seed); the adapter always sends `go_fast: false`, since imagegate always sends
 * a seed and promises that prompt and seed reproduce the image.
 *
 * FLUX 1.1 [pro] and FLUX.2 [pro] (added; sources read 2026-11-23):
 * - Inputs: their API pages, e.g. https://replicate.com/black-forest-labs/flux-1.1-pro/versions/a91bed9b.../api and
 *   https://replicate.com/black-forest-labs/flux-2-pro/versions/285631b5.../api: prompt, aspect_ratio ("custom" takes
 *   width and height: 256-1440 for 1.1 pro, 256-2048 for 2 pro, "a multiple of 32" in some versions and of 16 in
 *   others; we ask for multiples of 32, which suit both), seed, safety_tolerance, output_format (png), output a
 *   single file URL. No steps, guidance or negative prompt.
 * - Pricing: Replicate's own pages for these two were not among the stored sources. FLUX 1.1 [pro] is $0.04 per
 *   image in every listing seen (Black Forest Labs' price; runflow.io/models/black-forest-labs/flux-1-1-pro).
 *   FLUX.2 [pro] is billed per output megapixel of 1024x1024, rounded up (lumenfall.ai/models/black-forest-labs/
 *   flux.2-pro, listing Replicate), at Black Forest Labs' published rate of $0.03 for the first megapixel and
 *   $0.015 for each further one (runflow.io/models/black-forest-labs/flux-2-pro). Unconfirmed against Replicate.
 * - Lifecycle: no deprecation is announced for any model here in the stored sources.
 *
 * Input images (issue 18; sources read 2026-11-23):
 * - FLUX.2 [pro]: `input_images`, "Maximum 8 images" (its API page, version 285631b5). Replicate bills each input
 *   image per megapixel, rounded up and counted separately, at $0.015 (Black Forest Labs' input rate), as
 *   lumenfall.ai/models/black-forest-labs/flux.2-pro lists Replicate's price and as HeyPuter/puter pull 2806 observed on
 *   a real bill ("a 2.25MP image was billed as 3MP input"). Replicate's own page was not among the stored sources.
 * - FLUX.1 Kontext [pro] and [max]: one `input_image`; `aspect_ratio` "match_input_image" or one of 13 ratios, no
 *   width/height, about 1 megapixel out; seed; output_format png (API page of flux-kontext-pro, version 0a138193; the
 *   stored copies of flux-kontext-max's page were third-party mirrors of it, showing the same fields). Pricing: per
 *   output image, $0.04 and $0.08, Black Forest Labs' prices (docs.bfl.ml/quick_start/pricing) and the price
 *   lumenfall.ai/models/black-forest-labs/flux.1-kontext-pro lists for Replicate; input images are not billed.
 */

/** FLUX.1 Kontext [pro] and [max] take the same fields and one input image; they differ in speed and price. */
const kontext = (variant: 'pro' | 'max', description: string, typical_seconds: number, usd: number): ModelDefinition => ({
  id: `replicate/black-forest-labs/flux-kontext-${variant}`,
  name: `FLUX.1 Kontext [${variant}] on Replicate`,
  provider: 'replicate',
  provider_model: `black-forest-labs/flux-kontext-${variant}`,
  description,
  speed: 'medium',
  quality: 'high',
  typical_seconds,
  default_width: 1024,
  default_height: 1024,
  min_size: 256,
  max_width: 2048,
  max_height: 2048,
  parameters: ['width', 'height', 'seed'],
  pricing: { kind: 'per_image', usd },
  pricing_source: `https://replicate.com/black-forest-labs/flux-kontext-${variant}`,
  inputs: { max_images: 1, mask: false, strength: false },
});

export const replicateModels: readonly ModelDefinition[] = [
  {
    id: 'replicate/black-forest-labs/flux-schnell',
    name: 'FLUX.1 [schnell] on Replicate',
    provider: 'replicate',
    provider_model: 'black-forest-labs/flux-schnell',
    description:
      'Black Forest Labs FLUX.1 schnell on Replicate: good images in 1-4 steps; width:height picks the nearest of 11 aspect ratios at about 1 megapixel.',
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
    description:
      'Black Forest Labs FLUX.1 dev on Replicate: higher detail and prompt fidelity than schnell with 28 steps by default; width:height picks the nearest of 11 aspect ratios.',
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
  {
    id: 'replicate/black-forest-labs/flux-1.1-pro',
    name: 'FLUX 1.1 [pro] on Replicate',
    provider: 'replicate',
    provider_model: 'black-forest-labs/flux-1.1-pro',
    description: 'Black Forest Labs FLUX 1.1 pro on Replicate: fast, high-quality images at an exact size up to 1440 px, a flat price per image.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 5,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 1440,
    max_height: 1440,
    size_rule: { multiple_of: 32 },
    parameters: ['width', 'height', 'seed'],
    pricing: { kind: 'per_image', usd: 0.04 },
    pricing_source: 'https://replicate.com/black-forest-labs/flux-1.1-pro',
  },
  {
    id: 'replicate/black-forest-labs/flux-2-pro',
    name: 'FLUX.2 [pro] on Replicate',
    provider: 'replicate',
    provider_model: 'black-forest-labs/flux-2-pro',
    description: 'Black Forest Labs FLUX.2 pro on Replicate: production-grade images at an exact size up to 2048 px, billed per megapixel.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 15,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 2048,
    max_height: 2048,
    size_rule: { multiple_of: 32 },
    parameters: ['width', 'height', 'seed'],
    pricing: {
      kind: 'per_megapixel',
      first_megapixel_usd: 0.03,
      usd_per_megapixel: 0.015,
      megapixel_px: 1_048_576,
      round_up: true,
      input_usd_per_megapixel: 0.015,
    },
    pricing_source: 'https://replicate.com/black-forest-labs/flux-2-pro',
    inputs: { max_images: 8, mask: false, strength: false },
  },
  kontext(
    'pro',
    'Black Forest Labs FLUX.1 Kontext pro on Replicate: edits an input image from an instruction (or draws from text alone) at about 1 megapixel; a flat price per image.',
    6,
    0.04,
  ),
  kontext(
    'max',
    'Black Forest Labs FLUX.1 Kontext max on Replicate: the stronger Kontext editor, better at prompt following and typography; twice the price of pro.',
    10,
    0.08,
  ),
];
