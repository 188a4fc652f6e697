import type { ModelDefinition } from '../types.js';

/*
 * Cloudflare Workers AI: the FLUX.2 models, which take multipart/form-data (see the Workers AI adapter).
 *
 * FLUX.2 (added 2026-11-23). Sources read that day:
 * - Pricing: the model pages https://developers.cloudflare.com/ai/models/@cf/black-forest-labs/<name>/ and their
 *   source files src/content/workers-ai-models/flux-2-*.json in cloudflare/cloudflare-docs. flux-2-dev: "$0.00041 per
 *   output 512x512 tile, per step" (commit 7b9ce2ec, matching the live page; an older copy, 396d5241, said $0.000825);
 *   input tiles ($0.00021) are only for reference images, which we never send. flux-2-klein-4b: "$0.000287 per output
 *   512x512 tile" (commit e87de06b; a later copy of the file carries no price at all). flux-2-klein-9b: "$0.015 per
 *   first MP (1024x1024)" then "$0.002 per subsequent MP" (commit d68083b0); whether a started megapixel counts as
 *   a whole one is not stated: we round up, as fal and Black Forest Labs do.
 * - Request: their schemas only say `multipart` (body + contentType). The fields come from Cloudflare's own examples
 *   on the model pages and the changelog (developers.cloudflare.com/changelog/2026-01-28-flux-2-klein-9b-workers-ai):
 *   `prompt`, `width`, `height`, `steps` (25 in the flux-2-dev example); klein 9B runs "a fixed 4-step inference
 *   process" whose "steps parameter is fixed at 4 and cannot be adjusted" (so no steps here, nor for the distilled
 *   klein 4B). `seed`, `guidance` (dev only) and the 256-1920 px and 1-50 step limits are not in Cloudflare's stored
 *   pages; they are the audit's (issue 13) and agree with third-party clients (kinai9661/flux2-workers-ai README).
 * - Lifecycle: none of the stored model files marks a model here as deprecated.
 */

/** Where Cloudflare's model pages live now (the FLUX.2 pages were read there). */
const MODEL_PAGE = 'https://developers.cloudflare.com/ai/models/@cf/black-forest-labs/';

export const workersAiFlux2Models: readonly ModelDefinition[] = [
  // Multipart request; answer JSON `{ image: <base64> }`. Cost: 4 tiles x 25 steps x $0.00041 = $0.041 at defaults.
  {
    id: '@cf/black-forest-labs/flux-2-dev',
    name: 'FLUX.2 [dev]',
    provider: 'workers-ai',
    provider_model: '@cf/black-forest-labs/flux-2-dev',
    description: 'Black Forest Labs FLUX.2 dev: highly realistic, detailed images with step and guidance control; billed per output tile for every step.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 10,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 1920,
    max_height: 1920,
    default_steps: 25,
    max_steps: 50,
    parameters: ['width', 'height', 'seed', 'steps', 'guidance'],
    pricing: { kind: 'per_tile_step', usd_per_tile_step: 0.00041, tile_px: 512 },
    pricing_source: `${MODEL_PAGE}flux-2-dev/`,
  },
  // Multipart; distilled, fixed steps. Cost: 4 output tiles x $0.000287 = $0.001148 at 1024x1024.
  {
    id: '@cf/black-forest-labs/flux-2-klein-4b',
    name: 'FLUX.2 [klein] 4B',
    provider: 'workers-ai',
    provider_model: '@cf/black-forest-labs/flux-2-klein-4b',
    description: 'Black Forest Labs FLUX.2 klein 4B: an ultra-fast distilled model for real-time previews and high volume; billed per output tile.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 2,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 1920,
    max_height: 1920,
    parameters: ['width', 'height', 'seed'],
    pricing: { kind: 'tiles_and_steps', usd_per_tile: 0.000287, tile_px: 512, usd_per_step: 0 },
    pricing_source: `${MODEL_PAGE}flux-2-klein-4b/`,
  },
  // Multipart; fixed 4 steps. Cost: $0.015 for the first megapixel (1024x1024), $0.002 per further started one.
  {
    id: '@cf/black-forest-labs/flux-2-klein-9b',
    name: 'FLUX.2 [klein] 9B',
    provider: 'workers-ai',
    provider_model: '@cf/black-forest-labs/flux-2-klein-9b',
    description: 'Black Forest Labs FLUX.2 klein 9B: distilled 4-step model with better quality than 4B; billed per megapixel, the first one dearest.',
    speed: 'fast',
    quality: 'high',
    typical_seconds: 3,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 1920,
    max_height: 1920,
    parameters: ['width', 'height', 'seed'],
    pricing: { kind: 'per_megapixel', usd_per_megapixel: 0.002, first_megapixel_usd: 0.015, megapixel_px: 1_048_576, round_up: true },
    pricing_source: `${MODEL_PAGE}flux-2-klein-9b/`,
  },
];
