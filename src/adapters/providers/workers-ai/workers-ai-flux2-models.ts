import type { ModelDefinition, ModelInputs, PricingRule, Quality, Speed } from '../../../domain/models/types.js';

/*
 * Cloudflare Workers AI: the FLUX.2 models, which take multipart/form-data (see the Workers AI adapter).
 *
 * FLUX.2 (added 2026-11-23). Sources read that day:
 * - Pricing: the model pages https://developers.cloudflare.com/ai/models/@cf/black-forest-labs/<name>/ and their
 *   source files src/content/workers-ai-models/flux-2-*.json in cloudflare/cloudflare-docs. flux-2-dev: "$0.00041 per
 *   output 512x512 tile, per step" and "$0.00021 per input 512x512 tile, per step" (commit 7b9ce2ec, matching the live
 *   page; an older copy, 396d5241, said $0.000825 and $0.000413). flux-2-klein-4b: "$0.000287 per output 512x512 tile"
 *   and "$0.000059 per input 512x512 tile" (commit e87de06b; a later copy of the file carries no price at all).
 *   flux-2-klein-9b: "$0.015 per first MP (1024x1024)", "$0.002 per subsequent MP" and "$0.002 per input image MP"
 *   (commit d68083b0); whether a started megapixel counts as a whole one is not stated: we round up, as fal and Black
 *   Forest Labs do, for the output and for each input image.
 * - Request: their schemas only say `multipart` (body + contentType). The fields come from Cloudflare's own examples
 *   on the model pages and the changelog (developers.cloudflare.com/changelog/2026-01-28-flux-2-klein-9b-workers-ai):
 *   `prompt`, `width`, `height`, `steps` (25 in the flux-2-dev example); klein 9B runs "a fixed 4-step inference
 *   process" whose "steps parameter is fixed at 4 and cannot be adjusted" (so no steps here, nor for the distilled
 *   klein 4B). `seed`, `guidance` (dev only) and the 256-1920 px and 1-50 step limits are not in Cloudflare's stored
 *   pages; they are the audit's (issue 13) and agree with third-party clients (kinai9661/flux2-workers-ai README).
 * - Reference images (issue 18): the changelogs of all three (cloudflare/cloudflare-docs src/content/changelog/workers-ai/
 *   2025-11-25-flux-2-dev-workers-ai.mdx, 2026-01-15-flux-2-klein-4b-workers-ai.mdx, 2026-01-28-flux-2-klein-9b-workers-ai.mdx)
 *   list `input_image_0` .. `input_image_3` ("Binary image"), "up to 4 image inputs", sent as files in the same
 *   multipart form, and say "All input images must be smaller than 512x512": the adapter refuses a larger one before
 *   calling. Hence `max_images: 4`; no mask and no strength (the prompt says what to do with the images).
 * - Lifecycle: none of the stored model files marks a model here as deprecated.
 */

const REFERENCES: ModelInputs = { max_images: 4, mask: false, strength: false };

/** Where Cloudflare's model pages live now (the FLUX.2 pages were read there). */
const MODEL_PAGE = 'https://developers.cloudflare.com/ai/models/@cf/black-forest-labs/';

/** What differs between the FLUX.2 models; [dev] takes steps and guidance, the distilled [klein] models neither. */
interface Flux2Entry {
  name: string;
  description: string;
  speed: Speed;
  quality: Quality;
  typical_seconds: number;
  steps?: { default_steps: number; max_steps: number };
  pricing: PricingRule;
}

/** All three share their size range, multipart request and four reference images; written once here. */
const flux2 = (model: string, entry: Flux2Entry): ModelDefinition => ({
  id: `@cf/black-forest-labs/${model}`,
  name: entry.name,
  provider: 'workers-ai',
  provider_model: `@cf/black-forest-labs/${model}`,
  description: entry.description,
  speed: entry.speed,
  quality: entry.quality,
  typical_seconds: entry.typical_seconds,
  default_width: 1024,
  default_height: 1024,
  min_size: 256,
  max_width: 1920,
  max_height: 1920,
  ...entry.steps,
  parameters: entry.steps ? ['width', 'height', 'seed', 'steps', 'guidance'] : ['width', 'height', 'seed'],
  pricing: entry.pricing,
  pricing_source: `${MODEL_PAGE}${model}/`,
  inputs: REFERENCES,
});

export const workersAiFlux2Models: readonly ModelDefinition[] = [
  // Multipart request; answer JSON `{ image: <base64> }`. Cost: 4 tiles x 25 steps x $0.00041 = $0.041 at defaults,
  // plus 25 x $0.00021 for each (512x512, so one-tile) reference image.
  flux2('flux-2-dev', {
    name: 'FLUX.2 [dev]',
    description: 'Black Forest Labs FLUX.2 dev: highly realistic, detailed images with step and guidance control; billed per output tile for every step.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 10,
    steps: { default_steps: 25, max_steps: 50 },
    pricing: { kind: 'per_tile_step', usd_per_tile_step: 0.00041, tile_px: 512, input_usd_per_tile_step: 0.00021 },
  }),
  // Multipart; distilled, fixed steps. Cost: 4 output tiles x $0.000287 = $0.001148 at 1024x1024, plus $0.000059 per
  // reference image tile.
  flux2('flux-2-klein-4b', {
    name: 'FLUX.2 [klein] 4B',
    description: 'Black Forest Labs FLUX.2 klein 4B: an ultra-fast distilled model for real-time previews and high volume; billed per output tile.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 2,
    pricing: { kind: 'tiles_and_steps', usd_per_tile: 0.000287, tile_px: 512, usd_per_step: 0, input_usd_per_tile: 0.000059 },
  }),
  // Multipart; fixed 4 steps. Cost: $0.015 for the first megapixel (1024x1024), $0.002 per further started one, and
  // $0.002 per started megapixel of each reference image.
  flux2('flux-2-klein-9b', {
    name: 'FLUX.2 [klein] 9B',
    description: 'Black Forest Labs FLUX.2 klein 9B: distilled 4-step model with better quality than 4B; billed per megapixel, the first one dearest.',
    speed: 'fast',
    quality: 'high',
    typical_seconds: 3,
    pricing: {
      kind: 'per_megapixel',
      usd_per_megapixel: 0.002,
      first_megapixel_usd: 0.015,
      megapixel_px: 1_048_576,
      round_up: true,
      input_usd_per_megapixel: 0.002,
    },
  }),
];
