import type { ModelDefinition } from '../../../domain/models/types.js';
import { workersAiStableDiffusion } from './workers-ai-stable-diffusion-models.js';

/*
 * Cloudflare Workers AI: Stable Diffusion 1.5 image-to-image and inpainting (added for issue 18). Sources read 2026-11-23:
 * - Input schemas: src/content/workers-ai-models/stable-diffusion-v1-5-img2img.json (cloudflare/cloudflare-docs commit
 *   398302a4) and stable-diffusion-v1-5-inpainting.json (commit 17331b86), the same for both: prompt, negative_prompt,
 *   width/height (256-2048), `image` ("an array of integers that represent the image data constrained to 8-bit
 *   unsigned integer values"), `image_b64`, `mask` (likewise an array), num_steps (default 20, max 20), strength
 *   (0..1, default 1, "lower values make the output closer to the input image"), guidance (default 7.5), seed.
 *   Output: a binary PNG. Cloudflare's usage example on the model pages
 *   (developers.cloudflare.com/workers-ai/models/stable-diffusion-v1-5-inpainting/) passes the image and mask files'
 *   bytes as they are, `image: [...new Uint8Array(await exampleInputImage.arrayBuffer())]`, and the adapter does the same.
 * - Mask: runwayml/stable-diffusion-inpainting repaints where the mask is white and keeps where it is black; imagegate's
 *   masks mark the area to change as transparent (OpenAI's convention), so the adapter has the mask converted (see
 *   src/adapters/providers/stability/inpaint-mask.ts, shared with Stability).
 * - Pricing: both are beta. The inpainting page lists "$0.00 per step" (price property in the JSON above); the img2img
 *   page lists no price at all, and neither model is on https://developers.cloudflare.com/workers-ai/platform/pricing/.
 *   Both are recorded as free, as the other beta Stable Diffusion models here are.
 * - Size: SD 1.5 works at 512x512 (its training size; the schemas give no default), so that is the default here.
 * - Lifecycle: not among the models the 2026-05-08 changelog (planned-model-deprecations.mdx) retires.
 */

/** img2img and inpainting are the same SD 1.5 run two ways: only whether it takes a mask differs. */
const sd15 = (variant: 'img2img' | 'inpainting', name: string, description: string, mask: boolean): ModelDefinition =>
  workersAiStableDiffusion('runwayml', `stable-diffusion-v1-5-${variant}`, {
    name,
    description,
    speed: 'medium',
    quality: 'draft',
    typical_seconds: 5,
    default_size: 512,
    inputs: { max_images: 1, mask, strength: true },
  });

export const workersAiSd15Models: readonly ModelDefinition[] = [
  sd15(
    'img2img',
    'Stable Diffusion 1.5 img2img',
    'Stable Diffusion 1.5 redrawing an input image after the prompt (beta on Workers AI, currently free); strength sets how far it may move away.',
    false,
  ),
  sd15(
    'inpainting',
    'Stable Diffusion 1.5 inpainting',
    'Stable Diffusion 1.5 inpainting (beta on Workers AI, currently free): repaints the masked part of an input image after the prompt.',
    true,
  ),
];
