import type { ModelDefinition, ModelInputs, PricingRule } from '../../../domain/models/types.js';

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
 * - Image inputs (edits), read 2026-11-24. Inputs from fal-js's generated endpoint types (fal-ai/fal-js at 381105e1,
 *   libs/client/src/types/endpoints.ts); images go as base64 data URIs, which fal's models accept for any file input
 *   (docs.fal.ai/documentation/model-apis/fal-cdn, "Data URIs"). None takes a mask or a strength.
 *   - FLUX.2 [dev] edit, `fal-ai/flux-2/edit` (Flux2EditInput): `image_urls` ("A maximum of 4 images are allowed"),
 *     prompt, image_size (512-2048 px), seed, num_inference_steps (default 28), guidance_scale (default 2.5),
 *     output_format (jpeg, png, webp), enable_safety_checker. Price: $0.012 per megapixel of output and of each input
 *     image, each rounded up to whole megapixels of 1024x1024, as lumenfall.ai lists fal's `fal-ai/flux-2/edit`
 *     (lumenfall.ai/models/black-forest-labs/flux.2-dev); fal's own page for it was not among the stored sources.
 *     fal bills FLUX.2 [flex] edits the same way ("$0.05 per megapixel on both input and output side, rounded up",
 *     fal.ai/models/fal-ai/flux-2-flex/edit/llms.txt). Steps up to 50 (aimlapi.com's reference for the same endpoint).
 *   - FLUX.2 [pro] edit, `fal-ai/flux-2-pro/edit` (Flux2ProEditInput): `image_urls`, prompt, image_size, seed,
 *     safety_tolerance, enable_safety_checker, output_format (jpeg, png); no steps or guidance. fal's schema sets no
 *     image limit; Black Forest Labs allows [pro] "up to 8 via API (9MP total limit)" (docs.bfl.ml/flux_2/
 *     flux2_image_editing), so 8. Price: the first megapixel $0.03, each further one $0.015, input images billed at
 *     $0.015 per megapixel: lumenfall.ai's listing of fal's `fal-ai/flux-2-pro/edit`, and the wording fal uses for
 *     the same family ("Input images counted as processed megapixel", fal.ai/models/fal-ai/flux-2-max/edit/llms.txt).
 *     Unconfirmed on fal's own page for [pro] edit, which was not among the stored sources.
 *   - FLUX.1 Kontext [pro], `fal-ai/flux-pro/kontext` (FluxKontextInput): one `image_url`, prompt, seed,
 *     guidance_scale (default 3.5, 1-20), aspect_ratio, output_format (jpeg, png), safety_tolerance; no image_size.
 *     "$0.04 per images" (fal.ai/models/fal-ai/flux-pro/kontext/llms.txt). No size is sent, so the result keeps the
 *     input image's proportions (Kontext's own behaviour without aspect_ratio); the catalogue lists its nominal
 *     1024x1024, a fixed size, and the flat price does not depend on it.
 * - Queue protocol: https://fal.ai/docs/model-apis/model-endpoints/queue (submit, status_url, response_url).
 * - Lifecycle: nothing announced for these models in the stored sources.
 */

const MEGAPIXEL = 1_048_576;

type MegapixelRule = Extract<PricingRule, { kind: 'per_megapixel' }>;

/** What differs between the FLUX.2 entries on fal; [dev] takes steps and guidance, [pro] neither. */
interface Flux2OnFal {
  name: string;
  description: string;
  typical_seconds: number;
  steps?: { default_steps: number; max_steps: number };
  rates: Pick<MegapixelRule, 'first_megapixel_usd' | 'usd_per_megapixel' | 'input_usd_per_megapixel'>;
  pricing_source: string;
  inputs?: ModelInputs;
}

/** fal's FLUX.2 endpoints share their size range (512-2048) and per-started-megapixel billing; written once here. */
const flux2OnFal = (path: string, entry: Flux2OnFal): ModelDefinition => ({
  id: `fal/${path}`,
  name: entry.name,
  provider: 'fal',
  provider_model: path,
  description: entry.description,
  speed: 'medium',
  quality: 'high',
  typical_seconds: entry.typical_seconds,
  default_width: 1024,
  default_height: 1024,
  min_size: 512,
  max_width: 2048,
  max_height: 2048,
  ...entry.steps,
  parameters: entry.steps ? ['width', 'height', 'seed', 'steps', 'guidance'] : ['width', 'height', 'seed'],
  pricing: { kind: 'per_megapixel', ...entry.rates, round_up: true, megapixel_px: MEGAPIXEL },
  pricing_source: entry.pricing_source,
  ...(entry.inputs === undefined ? {} : { inputs: entry.inputs }),
});

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
  flux2OnFal('fal-ai/flux-2-pro', {
    name: 'FLUX.2 [pro] on fal',
    description: 'Black Forest Labs FLUX.2 pro on fal: production-grade images with no tuning needed; the first megapixel $0.03, each further one $0.015.',
    typical_seconds: 15,
    rates: { first_megapixel_usd: 0.03, usd_per_megapixel: 0.015 },
    pricing_source: 'https://fal.ai/models/fal-ai/flux-2-pro',
  }),
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
  // 1024x1024 from one 1024x1024 image: $0.012 out + $0.012 in. Four 2048x2048 references add 4 x 4 x $0.012.
  flux2OnFal('fal-ai/flux-2/edit', {
    name: 'FLUX.2 [dev] edit on fal',
    description: 'Black Forest Labs FLUX.2 dev on fal, editing up to 4 images by prompt; billed per started megapixel of the result and of every input image.',
    typical_seconds: 10,
    steps: { default_steps: 28, max_steps: 50 },
    rates: { usd_per_megapixel: 0.012, input_usd_per_megapixel: 0.012 },
    pricing_source: 'https://lumenfall.ai/models/black-forest-labs/flux.2-dev',
    inputs: { max_images: 4, mask: false, strength: false },
  }),
  // 1024x1024 from one 1024x1024 image: $0.03 + $0.015.
  flux2OnFal('fal-ai/flux-2-pro/edit', {
    name: 'FLUX.2 [pro] edit on fal',
    description:
      'Black Forest Labs FLUX.2 pro on fal, editing up to 8 images by prompt; the first megapixel $0.03, each further one and each input megapixel $0.015.',
    typical_seconds: 20,
    rates: { first_megapixel_usd: 0.03, usd_per_megapixel: 0.015, input_usd_per_megapixel: 0.015 },
    pricing_source: 'https://lumenfall.ai/models/black-forest-labs/flux.2-pro?mode=image-edit',
    inputs: { max_images: 8, mask: false, strength: false },
  }),
  // $0.04 whatever the size.
  {
    id: 'fal/fal-ai/flux-pro/kontext',
    name: 'FLUX.1 Kontext [pro] on fal',
    provider: 'fal',
    provider_model: 'fal-ai/flux-pro/kontext',
    description: 'Black Forest Labs FLUX.1 Kontext pro on fal: edits one image by prompt, keeping its proportions; $0.04 per image.',
    speed: 'medium',
    quality: 'high',
    typical_seconds: 8,
    default_width: 1024,
    default_height: 1024,
    min_size: 1024,
    max_width: 1024,
    max_height: 1024,
    parameters: ['seed', 'guidance'],
    pricing: { kind: 'per_image', usd: 0.04 },
    pricing_source: 'https://fal.ai/models/fal-ai/flux-pro/kontext/llms.txt',
    inputs: { max_images: 1, mask: false, strength: false },
  },
];
