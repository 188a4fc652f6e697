import type { ModelDefinition } from '../../../domain/models/types.js';

/*
 * Stability AI's Stable Image API (v2beta): `POST /v2beta/stable-image/generate/{core|ultra|sd3}` and
 * `POST /v2beta/stable-image/edit/inpaint`.
 *
 * Sources (stored copies read 2026-11-23; Stability's own pages were not among them, so these come from
 * copies of its API reference in client libraries and from pricing summaries that agree with each other):
 * - Pricing: https://platform.stability.ai/pricing, in credits at $0.01 each ($10 buys 1,000 credits):
 *   Core 3 credits, Ultra 8, SD 3.5 Large 6.5, SD 3.5 Large Turbo 4, SD 3.5 Medium 3.5; charged per image
 *   whatever its size.
 * - Request fields: https://platform.stability.ai/docs/api-reference#tag/Generate: prompt, negative_prompt,
 *   aspect_ratio (16:9 1:1 21:9 2:3 3:2 4:5 5:4 9:16 9:21), seed (0..4294967294), output_format; the sd3
 *   service adds model (sd3.5-large, the default, sd3.5-large-turbo, sd3.5-medium) and cfg_scale (1..10).
 * - Images in (read 2026-11-24): Stability's OpenAPI document (https://api.stability.ai/v2alpha/openapi) as generated
 *   into tryAGI/StabilityAI at 67b31be (StabilityAI.IGenerateClient.CreateStableImageGenerate{Ultra,Sd3,Core}.g.cs,
 *   StabilityAI.IEditClient.CreateStableImageEditInpaint.g.cs): Ultra takes one `image` with a `strength`; the sd3
 *   service does image-to-image (`mode=image-to-image`, `image`, `strength`) for every SD 3.5 model; Core takes no
 *   image. Inpaint takes the `image` to edit (each side at least 64 px, 4,096 to 9,437,184 pixels), a `prompt`, an
 *   optional `mask` (white = inpaint, black = keep; the adapter converts imagegate's transparent-means-change mask),
 *   `negative_prompt` and `seed`, at "a flat rate of 5 credits per successful generation". Image-to-image costs
 *   what text-to-image costs on each service.
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
    inputs: { max_images: 1, mask: false, strength: true },
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
    inputs: { max_images: 1, mask: false, strength: true },
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
    inputs: { max_images: 1, mask: false, strength: true },
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
    inputs: { max_images: 1, mask: false, strength: true },
  },
  {
    ...common,
    id: 'stability/inpaint',
    name: 'Stable Image Inpaint',
    provider_model: 'inpaint',
    description: "Stability AI's inpainting: redraws the masked part of one image (or its transparent pixels) from the prompt, keeping the rest.",
    speed: 'fast',
    quality: 'high',
    typical_seconds: 6,
    // No size is sent: Stability sizes the result from the image it edits (its reference says 4 megapixels out) and
    // the image records the size that came back. The pixel limits are Stability's for the input image.
    min_size: 64,
    max_width: 4096,
    max_height: 4096,
    size_rule: { min_pixels: 4_096, max_pixels: 9_437_184 },
    parameters: ['seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.05 },
    inputs: { max_images: 1, mask: true, strength: false },
  },
];
