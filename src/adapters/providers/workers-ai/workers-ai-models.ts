import type { ModelDefinition } from '../../../domain/models/types.js';
import { workersAiFlux2Models } from './workers-ai-flux2-models.js';
import { workersAiSd15Models } from './workers-ai-sd15-models.js';
import { workersAiStableDiffusion } from './workers-ai-stable-diffusion-models.js';

/*
 * Cloudflare Workers AI text-to-image models.
 *
 * Sources (stored copies read 2026-11-23; the live pages may have moved on since):
 * - Pricing: https://developers.cloudflare.com/workers-ai/platform/pricing/
 *   ("Image model pricing" table; source file src/content/docs/workers-ai/platform/pricing.mdx of
 *   cloudflare/cloudflare-docs, read from the mchenco/cloudflare-docs copy at commit 0713a3fb2d47,
 *   the newest copy available; the cloudflare/cloudflare-docs copy available was older and
 *   listed only flux-1-schnell, with the same numbers).
 *   Workers AI bills in neurons at $0.011 per 1,000 neurons; the page shows both units.
 * - Input/output schemas: the model pages https://developers.cloudflare.com/workers-ai/models/<name>/
 *   (source files src/content/workers-ai-models/<name>.json in cloudflare/cloudflare-docs).
 * - Beta Stable Diffusion models are not on the pricing page; their model pages show
 *   "Unit Pricing: $0.00 per step" (SDXL base, SDXL Lightning) or no price at all (DreamShaper).
 *
 * Request parameter names on the wire: `num_steps` for the SD/Leonardo models, `steps` for
 * flux-1-schnell (lucid-origin accepts both). `typical_seconds`, `speed` and `quality` are our
 * estimates (fast ~2-3 s, higher quality ~5-7 s), not Cloudflare figures.
 *
 * FLUX.2 [dev] and [klein] (which take reference images): see workers-ai-flux2-models.ts. Stable Diffusion 1.5 img2img and
 * inpainting: see workers-ai-sd15-models.ts. The beta Stable Diffusion entries (here and there) are built by
 * workers-ai-stable-diffusion-models.ts, which holds the schema limits they share.
 */

const PRICING_PAGE = 'https://developers.cloudflare.com/workers-ai/platform/pricing/';

export const workersAiModels: readonly ModelDefinition[] = [
  // Output: JSON `{ image: <base64> }` (JPEG bytes, per Cloudflare's own data-URI example).
  // Input schema: `prompt` (1-2048 chars) and `steps` (default 4, max 8) only, with
  // additionalProperties: false. No width/height: the output is a fixed 1024x1024 image (observed
  // output, not stated in the schema). No seed in the schema, although Cloudflare's usage example
  // passes one; we follow the schema.
  // Pricing: $0.0000528 per 512x512 tile + $0.0001056 per step
  //   = 4.80 neurons/tile * $0.011/1000 and 9.60 neurons/step * $0.011/1000.
  //   Default: 4 tiles * 0.0000528 + 4 steps * 0.0001056 = 0.0002112 + 0.0004224 = $0.0006336.
  {
    id: '@cf/black-forest-labs/flux-1-schnell',
    name: 'FLUX.1 [schnell]',
    provider: 'workers-ai',
    provider_model: '@cf/black-forest-labs/flux-1-schnell',
    description: 'Black Forest Labs 12B distilled flow model: good images in 4 steps at a fixed 1024x1024, with no size, seed or negative-prompt control.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 2,
    default_width: 1024,
    default_height: 1024,
    min_size: 1024,
    max_width: 1024,
    max_height: 1024,
    default_steps: 4,
    max_steps: 8,
    parameters: ['steps'],
    pricing: { kind: 'tiles_and_steps', usd_per_tile: 0.0000528, tile_px: 512, usd_per_step: 0.0001056 },
    pricing_source: PRICING_PAGE,
  },
  // Output: raw PNG bytes (contentType image/png).
  // Input schema: prompt, negative_prompt, width/height (256-2048, no default), num_steps
  // (default 20, max 20), guidance (default 7.5), seed; also image/image_b64/mask/strength for
  // img2img, which we do not use. Default size: SDXL's native 1024x1024 output (no schema default).
  // Pricing: beta; model page shows "$0.00 per step"; not on the pricing page. Cost $0.
  workersAiStableDiffusion('stabilityai', 'stable-diffusion-xl-base-1.0', {
    name: 'Stable Diffusion XL 1.0',
    description:
      'Stability AI SDXL base model (beta on Workers AI, currently free): full parameter control, but slower and less prompt-faithful than newer models.',
    speed: 'medium',
    quality: 'standard',
    typical_seconds: 6,
    default_size: 1024,
  }),
  // Output: raw PNG bytes (contentType image/png).
  // Input schema: identical to SDXL base (width/height 256-2048, num_steps default 20 max 20,
  // guidance default 7.5, seed, negative_prompt). The schema's 20-step default is what Cloudflare
  // documents, even though Lightning is a few-step distillation. Default size: 1024x1024, the
  // model's native output ("high-quality 1024px images in a few steps"); no schema default.
  // Pricing: beta; model page price property is "$0 per step"; not on the pricing page. Cost $0.
  workersAiStableDiffusion('bytedance', 'stable-diffusion-xl-lightning', {
    name: 'SDXL-Lightning',
    description: 'ByteDance few-step distillation of SDXL (beta on Workers AI, currently free): fast 1024px images with somewhat less detail than SDXL base.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 3,
    default_size: 1024,
  }),
  // Output: raw PNG bytes (contentType image/png).
  // Input schema: identical to SDXL base (width/height 256-2048, num_steps default 20 max 20,
  // guidance default 7.5, seed, negative_prompt). Default size: 512x512, the native resolution of
  // DreamShaper 8 (a Stable Diffusion 1.5 fine-tune); neither the schema nor the page states it.
  // Pricing: beta; no price on the model page and not on the pricing page; treated as free.
  workersAiStableDiffusion('lykon', 'dreamshaper-8-lcm', {
    name: 'DreamShaper 8 LCM',
    description: 'Stable Diffusion 1.5 fine-tune for photorealism with an LCM scheduler (beta on Workers AI, no listed price): quick drafts at SD 1.5 quality.',
    speed: 'fast',
    quality: 'draft',
    typical_seconds: 2,
    default_size: 512,
  }),
  // Output: raw JPEG bytes (contentType image/jpeg).
  // Input schema: prompt, negative_prompt, width/height (min 0, max 2048, default 1024), num_steps
  // (1-50, default 25), guidance (2-10, default 2), seed (>= 0). min_size 256 is our floor: the
  // schema's minimum of 0 is not a usable size.
  // Pricing: $0.005830 per 512x512 tile + $0.000110 per step
  //   = 530 neurons/tile * $0.011/1000 and 10 neurons/step * $0.011/1000.
  //   Default: 4 tiles * 0.00583 + 25 steps * 0.00011 = 0.02332 + 0.00275 = $0.02607.
  {
    id: '@cf/leonardo/phoenix-1.0',
    name: 'Leonardo Phoenix 1.0',
    provider: 'workers-ai',
    provider_model: '@cf/leonardo/phoenix-1.0',
    description: 'Leonardo.Ai model with strong prompt adherence and legible text in images; among the priciest and slowest here.',
    speed: 'slow',
    quality: 'high',
    typical_seconds: 7,
    default_width: 1024,
    default_height: 1024,
    min_size: 256,
    max_width: 2048,
    max_height: 2048,
    default_steps: 25,
    max_steps: 50,
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'],
    pricing: { kind: 'tiles_and_steps', usd_per_tile: 0.00583, tile_px: 512, usd_per_step: 0.00011 },
    pricing_source: PRICING_PAGE,
  },
  // Output: JSON `{ image: <base64> }` (contentType application/json).
  // Input schema: prompt, width/height (min 0, max 2500, default 1120), num_steps or steps (1-40),
  // guidance (0-10, default 4.5), seed (>= 0); no negative_prompt. The current schema gives no
  // step default; an earlier published version said 4, which we use. min_size 256 is our floor.
  // Pricing: $0.006996 per 512x512 tile + $0.000132 per step
  //   = 636 neurons/tile * $0.011/1000 and 12 neurons/step * $0.011/1000
  //   (the model page rounds these to $0.007 and $0.000132).
  //   Default 1120x1120 is ceil(1120/512)^2 = 9 tiles:
  //   9 * 0.006996 + 4 * 0.000132 = 0.062964 + 0.000528 = $0.063492.
  {
    id: '@cf/leonardo/lucid-origin',
    name: 'Leonardo Lucid Origin',
    provider: 'workers-ai',
    provider_model: '@cf/leonardo/lucid-origin',
    description:
      "Leonardo.Ai's most prompt-responsive model, good at graphic design and accurate text; its 1120px default makes it the most expensive per image here.",
    speed: 'medium',
    quality: 'high',
    typical_seconds: 5,
    default_width: 1120,
    default_height: 1120,
    min_size: 256,
    max_width: 2500,
    max_height: 2500,
    default_steps: 4,
    max_steps: 40,
    parameters: ['width', 'height', 'seed', 'steps', 'guidance'],
    pricing: { kind: 'tiles_and_steps', usd_per_tile: 0.006996, tile_px: 512, usd_per_step: 0.000132 },
    pricing_source: PRICING_PAGE,
  },
  ...workersAiFlux2Models,
  ...workersAiSd15Models,
];
