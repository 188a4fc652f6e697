import type { ModelDefinition } from '../types.js';

/*
 * fal.ai, through its queue API (`https://queue.fal.run/{model}`).
 *
 * Sources (stored copies read 2026-11-23):
 * - Pricing: https://fal.ai/models/fal-ai/flux/schnell ("Your request will cost $0.003 per megapixel. Images are
 *   billed by rounding up to the nearest megapixel."), https://fal.ai/pricing.
 *   So 1024x768 (0.79 MP) bills 1 MP, $0.003, and 1024x1024 (1.05 MP) bills 2 MP, $0.006.
 * - Inputs: https://fal.ai/models/fal-ai/flux/schnell/api: prompt, image_size (a preset or { width, height },
 *   default landscape_4_3 = 1024x768), num_inference_steps (default 4, 1-12), seed, num_images,
 *   enable_safety_checker, output_format (jpeg, png).
 * - Queue protocol: https://fal.ai/docs/model-apis/model-endpoints/queue (submit, status_url, response_url).
 *
 * The default size is fal's own default, 1024x768, the largest common size that still bills as 1 megapixel.
 */

export const falModels: readonly ModelDefinition[] = [
  {
    id: 'fal/fal-ai/flux/schnell',
    name: 'FLUX.1 [schnell] on fal',
    provider: 'fal',
    provider_model: 'fal-ai/flux/schnell',
    description: 'Black Forest Labs FLUX.1 schnell on fal: any width and height, billed per started megapixel; 4 steps by default.',
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
    pricing: { kind: 'per_megapixel', usd_per_megapixel: 0.003, round_up: true },
    pricing_source: 'https://fal.ai/models/fal-ai/flux/schnell',
  },
];
