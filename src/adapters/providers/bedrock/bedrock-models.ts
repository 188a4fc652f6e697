import type { ModelDefinition } from '../../../domain/models/types.js';

/*
 * Amazon Bedrock's image models, called with the runtime's InvokeModel (`POST /model/{modelId}/invoke`). Sources,
 * read 2026-11-27; AWS's pricing page itself (https://aws.amazon.com/bedrock/pricing/) was not among the stored
 * sources, so every price below comes from copies of it and could not be confirmed on AWS's own page:
 *
 * - Stability models and request bodies: the Bedrock user guide, "Stable Image Ultra request and response",
 *   "Stable Image Core request and response" and "Stability.ai Stable Diffusion 3.5 Large"
 *   (docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-diffusion-*.html): `prompt`, `aspect_ratio` (9
 *   ratios, "only valid for text-to-image"), `seed` (0 = random), `negative_prompt`, `output_format` (jpeg, png);
 *   SD 3.5 Large also `mode: image-to-image` with `image` (base64) and `strength`; Ultra and Core document text to
 *   image only. Answer `{ seeds, finish_reasons, images }`. The ids are those the guide's examples and current SDK
 *   users name (stability.stable-image-ultra-v1:1, stability.stable-image-core-v1:1, stability.sd3-5-large-v1:0).
 * - Regions: the three generators are offered on demand in us-west-2 only; Stability's image services (inpaint among
 *   them) in us-east-1, us-east-2 and us-west-2, called through the `us.` cross-Region inference profile (a public,
 *   daily-updated table of Bedrock models by region; kalleeh/bedrock-image-mcp-server consts.py names
 *   us.stability.stable-image-inpaint-v1:0). So BEDROCK_REGION=us-west-2 reaches every active model here.
 * - Inpaint: Stability AI Image Services in the Bedrock guide (stable-image-services.html) and the request of
 *   kalleeh/bedrock-image-mcp-server at 100919e (services/stability_edit.py): `image`, `mask` (white = fill, black =
 *   keep), `prompt`, `negative_prompt`, `seed`, `grow_mask`, `output_format`; images at least 64 px a side.
 * - Prices per image, as copies of AWS's pricing page list them: LiteLLM's cost map as a public project embeds it
 *   (Ultra v1:1 $0.14, SD 3.5 Large $0.08, Core v1:1 $0.04), and a third-party cost table of the whole Image Services
 *   family (inpaint $0.07, the same as erase and search-and-replace; another copy says $0.04, so inpaint is the least
 *   sure). Bedrock bills Stability per image, whatever its size.
 * - Lifecycle (docs.aws.amazon.com/bedrock/latest/userguide/model-lifecycle.html as summarised 2026-09-01 by
 *   api-evangelist/amazon-nova lifecycle/amazon-nova-lifecycle.yml; the same dates in users' code and notes):
 *   Nova Canvas (amazon.nova-canvas-v1:0) Legacy from 2026-03-30, end of life 2026-09-30. Titan Image Generator G1
 *   v2 (amazon.titan-image-generator-v2:0): end of life 2026-06-30 (its Bedrock model card); its Legacy date and
 *   v1's dates were not found, and v1 is left out. Both are listed shut down, so their entries say what happened to
 *   them; the adapter has no request for either. AWS names no InvokeModel successor to Nova Canvas: Amazon Nova 2
 *   Omni generates images through the Converse API (not this adapter's), and its availability and price could not
 *   be confirmed. The replacement named here is imagegate's choice: Stable Image Core, at Nova Canvas's standard price.
 * - Nova Canvas prices (standard / premium quality): up to 1024x1024 $0.04 / $0.06, up to 2048x2048 $0.06 / $0.08;
 *   Titan G1 v2 (standard): 512x512 $0.008, 1024x1024 $0.01. The catalogue's rules have no "up to N pixels" tier and
 *   no quality axis, so these entries price 1024x1024 at standard quality and any other size at the larger tier.
 *
 * Whether Bedrock bills a request its content filters block is not documented; imagegate records a refusal as
 * uncharged, as for every provider.
 */

const PRICING = 'https://aws.amazon.com/bedrock/pricing/';

const stability = {
  provider: 'bedrock',
  default_width: 1024,
  default_height: 1024,
  min_size: 256,
  max_width: 2048,
  max_height: 2048,
  pricing_source: PRICING,
} as const;

/** Stable Image Core, the replacement named for the shut-down Amazon models. */
export const BEDROCK_CORE = 'bedrock/stability.stable-image-core-v1:1';

export const bedrockModels: readonly ModelDefinition[] = [
  {
    ...stability,
    id: BEDROCK_CORE,
    name: 'Stable Image Core (Bedrock)',
    provider_model: 'stability.stable-image-core-v1:1',
    description: "Stability AI's fast, low-cost model on Amazon Bedrock (us-west-2): about 1.5 megapixels; width:height picks the nearest of 9 aspect ratios.",
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 5,
    parameters: ['width', 'height', 'seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.04 },
  },
  {
    ...stability,
    id: 'bedrock/stability.stable-image-ultra-v1:1',
    name: 'Stable Image Ultra (Bedrock)',
    provider_model: 'stability.stable-image-ultra-v1:1',
    description: "Stability AI's highest-quality model on Amazon Bedrock (us-west-2), text to image; width:height picks the nearest of 9 aspect ratios.",
    speed: 'medium',
    quality: 'high',
    typical_seconds: 12,
    parameters: ['width', 'height', 'seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.14 },
  },
  {
    ...stability,
    id: 'bedrock/stability.sd3-5-large-v1:0',
    name: 'Stable Diffusion 3.5 Large (Bedrock)',
    provider_model: 'stability.sd3-5-large-v1:0',
    description: 'Stable Diffusion 3.5 Large (8B) on Amazon Bedrock (us-west-2): about 1 megapixel, text to image or image to image with a strength.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 9,
    parameters: ['width', 'height', 'seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.08 },
    inputs: { max_images: 1, mask: false, strength: true },
  },
  {
    ...stability,
    id: 'bedrock/us.stability.stable-image-inpaint-v1:0',
    name: 'Stable Image Inpaint (Bedrock)',
    provider_model: 'us.stability.stable-image-inpaint-v1:0',
    description:
      "Stability AI's inpainting on Amazon Bedrock (US regions, through the us. inference profile): redraws the masked part of one image from the prompt.",
    speed: 'fast',
    quality: 'high',
    typical_seconds: 7,
    // No size is sent: the result has the size of the image edited. The limits are those of the input image.
    min_size: 64,
    max_width: 4096,
    max_height: 4096,
    size_rule: { min_pixels: 4_096, max_pixels: 9_437_184 },
    parameters: ['seed', 'negative_prompt'],
    pricing: { kind: 'per_image', usd: 0.07 },
    inputs: { max_images: 1, mask: true, strength: false },
  },
  // Shut down by AWS: listed so their end reads where they are looked for; never called.
  {
    id: 'bedrock/amazon.nova-canvas-v1:0',
    name: 'Amazon Nova Canvas',
    provider: 'bedrock',
    provider_model: 'amazon.nova-canvas-v1:0',
    description: "Amazon's Nova Canvas image model. Legacy on Bedrock from 2026-03-30, shut down by AWS on 2026-09-30.",
    speed: 'medium',
    quality: 'high',
    typical_seconds: 10,
    default_width: 1024,
    default_height: 1024,
    min_size: 320,
    max_width: 2048,
    max_height: 2048,
    size_rule: { multiple_of: 16, max_pixels: 4_194_304, max_aspect_ratio: 4 },
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'guidance'],
    pricing: { kind: 'by_size', prices: { '1024x1024': 0.04 }, default_usd: 0.06 },
    pricing_source: PRICING,
    deprecated_at: '2026-03-30',
    shutdown_at: '2026-09-30',
    replacement: BEDROCK_CORE,
  },
  {
    id: 'bedrock/amazon.titan-image-generator-v2:0',
    name: 'Amazon Titan Image Generator G1 v2',
    provider: 'bedrock',
    provider_model: 'amazon.titan-image-generator-v2:0',
    description: "Amazon's Titan Image Generator G1 v2 at standard quality. Shut down by AWS on 2026-06-30.",
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 8,
    default_width: 1024,
    default_height: 1024,
    min_size: 512,
    max_width: 1024,
    max_height: 1024,
    sizes: ['512x512', '1024x1024'],
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'guidance'],
    pricing: { kind: 'by_size', prices: { '512x512': 0.008, '1024x1024': 0.01 }, default_usd: 0.01 },
    pricing_source: PRICING,
    shutdown_at: '2026-06-30',
    replacement: BEDROCK_CORE,
  },
];
