import type { ModelDefinition } from '../types.js';

/*
 * fal.ai, through its queue API (`https://queue.fal.run/{model}`). Sources read 2026-11-23:
 *
 * - What a megapixel is: fal's own FLUX.2 [flex] page (https://fal.ai/models/fal-ai/flux-2-flex/llms.txt): "a
 *   1024x1024 image will cost $0.05, and a 1920x1080 image will cost $0.10 (2 megapixels)", "rounded up to the nearest
 *   megapixel". 1920x1080 is 2,073,600 pixels: 2 megapixels only if one is 1024x1024 = 1,048,576 pixels (with 10^6 it
 *   would round up to 3), and 1024x1024 bills as 1. So 1024x1024 is 1 MP, not 2 as this catalogue used to say.
 *   lumenfall.ai's fal listings say the same ("1 megapixel = 1024x1024 pixels").
 * - FLUX.1 [schnell]: https://fal.ai/models/fal-ai/flux/schnell, $0.003 per megapixel rounded up; inputs prompt,
 *   image_size (a preset or { width, height }, default landscape_4_3 = 1024x768), num_inference_steps (default 4,
 *   1-12), seed, num_images, enable_safety_checker, output_format.
 * - FLUX.2 [pro]: inputs from fal's API reference (https://fal.ai/docs/model-api-reference/image-generation-api/
 *   flux-2-pro): prompt, image_size, seed, safety_tolerance, enable_safety_checker, output_format (jpeg, png); no
 *   steps or guidance. Price: "$0.03 first MP + $0.015/extra MP" as listed from fal's pages by a third-party summary
 *   (skillspool.org fal-flux-prompting skill); fal's own FLUX.2 [pro] price page was not among the stored sources.
 *   Size limits: fal documents 512-2048 px for its FLUX.2 [dev] endpoint (fal.ai/models/fal-ai/flux-2-dev/llms.txt);
 *   we apply the same to [pro].
 * - FLUX 1.1 [pro]: `fal-ai/flux-pro/v1.1`, $0.04 per megapixel (runflow.io/models/black-forest-labs/flux-pro-v1-1,
 *   which exposes fal's inputs; another summary says $0.055, so this figure is unconfirmed); inputs prompt,
 *   image_size, seed, num_images, output_format, safety_tolerance, enable_safety_checker. Sizes 256-1440 in steps of
 *   32, Black Forest Labs' own limits for the model (as on Replicate).
 * - Queue protocol: https://fal.ai/docs/model-apis/model-endpoints/queue (submit, status_url, response_url).
 * - Lifecycle: nothing announced for these models in the stored sources.
 */

const MEGAPIXEL = 1_048_576;

export const falModels: readonly ModelDefinition[] = [
  // Default 1024x768, fal's own default, bills 1 MP: $0.003. 1024x1024 is 1 MP too; 2048x2048 is 4 MP, $0.012.
  {
    id: 'fal/fal-ai/flux/schnell',
    name: 'FLUX.1 [schnell] on fal',
    provider: 'fal',
    provider_model: 'fal-ai/flux/schnell',
    description: 'Black Forest Labs FLUX.1 schnell on fal: any width and height, billed per started megapixel of 1024x1024; 4 steps by default.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 2,
    default_width: 1024,
    default_height: 768,
    min_size: 256,
    max_width: 2048,
    max_height: 2048,
    default_steps: 4,
    max_steps: 12,
    parameters: ['width', 'height', 'seed', 'steps'],
    pricing: { kind: 'per_megapixel', usd_per_megapixel: 0.003, round_up: true, megapixel_px: MEGAPIXEL },
    pricing_source: 'https://fal.ai/models/fal-ai/flux/schnell',
  },
  // 1024x1024: $0.03; 1920x1080 (2 MP): $0.045.
  {
    id: 'fal/fal-ai/flux-2-pro',
    name: 'FLUX.2 [pro] on fal',
    provider: 'fal',
    provider_model: 'fal-ai/flux-2-pro',
    description: 'Black Forest Labs FLUX.2 pro on fal: production-grade images with no tuning needed; the first megapixel $0.03, each further one $0.015.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 15,
    default_width: 1024,
    default_height: 1024,
    min_size: 512,
    max_width: 2048,
    max_height: 2048,
    parameters: ['width', 'height', 'seed'],
    pricing: { kind: 'per_megapixel', first_megapixel_usd: 0.03, usd_per_megapixel: 0.015, round_up: true, megapixel_px: MEGAPIXEL },
    pricing_source: 'https://fal.ai/models/fal-ai/flux-2-pro',
  },
  // 1024x1024: $0.04.
  {
    id: 'fal/fal-ai/flux-pro/v1.1',
    name: 'FLUX 1.1 [pro] on fal',
    provider: 'fal',
    provider_model: 'fal-ai/flux-pro/v1.1',
    description: 'Black Forest Labs FLUX 1.1 pro on fal: fast, high-quality images up to 1440 px, billed per started megapixel.',
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
    pricing: { kind: 'per_megapixel', usd_per_megapixel: 0.04, round_up: true, megapixel_px: MEGAPIXEL },
    pricing_source: 'https://fal.ai/models/fal-ai/flux-pro/v1.1',
  },
];
