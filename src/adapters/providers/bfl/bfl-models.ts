import type { ModelDefinition } from '../../../domain/models/types.js';

/*
 * Black Forest Labs' own API (https://api.bfl.ai): `POST /v1/{model}` with an `x-key` header, then the `polling_url`
 * it answers. Sources read 2026-11-27:
 *
 * - Request fields: BFL's API reference, which embeds its OpenAPI document (https://api.bfl.ai/openapi.json):
 *   - FLUX.2 [pro], [max] (docs.bfl.ai/api-reference/models/generate-or-edit-an-image-with-flux2-[pro], and the
 *     [max] page): prompt, input_image and input_image_2..input_image_8 ("Base64 encoded image or URL"), seed,
 *     width, height (at least 64), safety_tolerance (0-5, default 2), output_format (jpeg, png; default jpeg).
 *   - FLUX.2 [flex] (bfl.mintlify.app/api-reference/models/generate-or-edit-an-image-with-flux2-[flex]): the same, plus
 *     steps (1-50, default 50), guidance (1.5-10, default 4.5) and prompt_upsampling, on by default. The adapter
 *     turns it off: imagegate promises that prompt and seed reproduce an image, which a rewritten prompt would not.
 *   - FLUX.1 Kontext [pro] and [max] (docs.bfl.ml/api-reference/models/edit-or-create-an-image-with-flux-kontext-pro,
 *     .../tasks/edit-or-create-an-image-with-flux-kontext-max): prompt, input_image and input_image_2..4 (the extra
 *     three marked "Experimental Multiref"), seed, aspect_ratio ("between 21:9 and 9:21"), output_format,
 *     prompt_upsampling (default false), safety_tolerance (0-6, default 2). No width or height: "All outputs are
 *     ~1MP total" (bfl.mintlify.app/kontext/kontext_text_to_image), so the adapter sends the listed ratio nearest to
 *     width:height and the image records the size BFL made.
 * - Sizes of FLUX.2 (help.bfl.ai "Aspect Ratios and Output Dimensions", updated 2026-04-02): at least 256x256, at
 *   most 4 megapixels (2048x2048), multiples of 16, any aspect ratio, 1024x1024 by default. The catalogue keeps each
 *   side within 2048, as BFL's examples do.
 * - Input images: FLUX.2 [pro], [max] and [flex] take up to 8 (black-forest-labs/skills, skills/bfl-api/SKILL.md,
 *   "Multi-Reference I2I"; [pro] "up to 8 via API (9MP total limit)", docs.bfl.ml/flux_2/flux2_image_editing).
 * - Pricing (1 credit = $0.01): BFL's own pricing table as its skills repository quotes it from https://bfl.ai/pricing
 *   (black-forest-labs/skills at 937fe03, 2026-01-28, "Update FLUX.2 [flex] pricing from 6c to 5c per megapixel"):
 *   FLUX.2 [pro] 3c the first megapixel and 1.5c each further one, [max] 7c and 3c, [flex] 5c and 5c, with the
 *   formula "(firstMP + (outputMP-1) * mpPrice) + (inputMP * mpPrice)": every input megapixel at the further-megapixel
 *   price. Kontext [pro] $0.04 and [max] $0.08 per image, input images not billed. bfl.ai/pricing itself was not
 *   among the stored sources; developer.puter.com/tutorials/flux-api-pricing (June 2026) lists the same figures for
 *   [pro], [flex] and Kontext. Older third-party listings (infr.sh, openai-hk) still show [flex] at 6c.
 * - What a megapixel is, and rounding: a submit answer BFL sent for FLUX.2 [pro], as quoted by
 *   oauth.openai-hk.com/docs/en/lab/bfl-flux.html: `"cost": 4.5, "input_mp": 0, "output_mp": 1.98`. 1.98 is
 *   1920x1080 in megapixels of 1024x1024 (1,048,576 px), and 4.5 credits is 3 + 1.5 for two megapixels: output
 *   megapixels are rounded up to whole ones of 1024x1024. That input megapixels are rounded the same way is assumed
 *   (not confirmed). BFL states the exact charge in each submit answer's `cost`; the ledger uses this rule.
 * - Moderation: "Request Moderated" and "Content Moderated" are "Not charged" (help.bfl.ai, "Why did my request
 *   fail?", updated 2026-06-12).
 * - Lifecycle: no deprecation or shutdown date is announced for any of these. BFL's API reference calls Kontext
 *   [pro] "legacy" and points editing to FLUX.2 [pro], without a date. `/v1/flux-2-pro` is "a fixed snapshot of
 *   FLUX.2 [pro] for workflows that require reproducibility" (docs.us.bfl.ai/quick_start/generating_images); the
 *   `-preview` endpoints move, so the catalogue lists only the pinned ones.
 * - Typical seconds are our estimates; BFL publishes none.
 */

const MEGAPIXEL = 1_048_576;
const PRICING = 'https://bfl.ai/pricing';

/** What differs between the FLUX.2 models: their speed, rates and (for [flex]) steps and guidance. */
interface Flux2 {
  name: string;
  description: string;
  typical_seconds: number;
  quality: ModelDefinition['quality'];
  first_megapixel_usd: number;
  usd_per_megapixel: number;
  tunable?: boolean;
}

/** FLUX.2 on BFL: 256-2048 px in multiples of 16, at most 4 megapixels, up to 8 input images billed per megapixel. */
const flux2 = (variant: 'pro' | 'max' | 'flex', entry: Flux2): ModelDefinition => ({
  id: `bfl/flux-2-${variant}`,
  name: entry.name,
  provider: 'bfl',
  provider_model: `flux-2-${variant}`,
  description: entry.description,
  speed: 'medium',
  quality: entry.quality,
  typical_seconds: entry.typical_seconds,
  default_width: 1024,
  default_height: 1024,
  min_size: 256,
  max_width: 2048,
  max_height: 2048,
  size_rule: { multiple_of: 16, max_pixels: 4 * MEGAPIXEL },
  ...(entry.tunable === true ? { default_steps: 50, max_steps: 50 } : {}),
  parameters: entry.tunable === true ? ['width', 'height', 'seed', 'steps', 'guidance'] : ['width', 'height', 'seed'],
  pricing: {
    kind: 'per_megapixel',
    first_megapixel_usd: entry.first_megapixel_usd,
    usd_per_megapixel: entry.usd_per_megapixel,
    input_usd_per_megapixel: entry.usd_per_megapixel,
    round_up: true,
    megapixel_px: MEGAPIXEL,
  },
  pricing_source: PRICING,
  inputs: { max_images: 8, mask: false, strength: false },
});

/** FLUX.1 Kontext: about 1 megapixel at the ratio asked for, a flat price, up to 4 input images. */
const kontext = (variant: 'pro' | 'max', description: string, typical_seconds: number, usd: number): ModelDefinition => ({
  id: `bfl/flux-kontext-${variant}`,
  name: `FLUX.1 Kontext [${variant}]`,
  provider: 'bfl',
  provider_model: `flux-kontext-${variant}`,
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
  pricing_source: PRICING,
  inputs: { max_images: 4, mask: false, strength: false },
});

export const bflModels: readonly ModelDefinition[] = [
  // 1024x1024: $0.03; 1920x1080 (2 MP): $0.045; an edit of one 1024x1024 image adds $0.015.
  flux2('pro', {
    name: 'FLUX.2 [pro]',
    description:
      "Black Forest Labs' FLUX.2 pro from BFL's own API: generates or edits up to 8 images by prompt; the first megapixel $0.03, each further one and each input megapixel $0.015.",
    typical_seconds: 10,
    quality: 'high',
    first_megapixel_usd: 0.03,
    usd_per_megapixel: 0.015,
  }),
  // 1024x1024: $0.07; each further megapixel and each input megapixel $0.03.
  flux2('max', {
    name: 'FLUX.2 [max]',
    description:
      "Black Forest Labs' highest-quality FLUX.2 from BFL's own API: generates or edits up to 8 images; the first megapixel $0.07, each further one and each input megapixel $0.03.",
    typical_seconds: 20,
    quality: 'high',
    first_megapixel_usd: 0.07,
    usd_per_megapixel: 0.03,
  }),
  // $0.05 per megapixel in and out, whatever the steps.
  flux2('flex', {
    name: 'FLUX.2 [flex]',
    description:
      "Black Forest Labs' FLUX.2 flex from BFL's own API, for typography and fine control: steps (up to 50) and guidance; $0.05 per megapixel of output and of every input image.",
    typical_seconds: 20,
    quality: 'high',
    first_megapixel_usd: 0.05,
    usd_per_megapixel: 0.05,
    tunable: true,
  }),
  kontext(
    'pro',
    "Black Forest Labs' FLUX.1 Kontext pro from BFL's own API: edits up to 4 images by prompt (or draws without one) at about 1 megapixel, width:height picking the nearest ratio; $0.04 per image.",
    8,
    0.04,
  ),
  kontext(
    'max',
    "Black Forest Labs' FLUX.1 Kontext max from BFL's own API: stronger prompt adherence and typography than Kontext pro, about 1 megapixel; $0.08 per image.",
    10,
    0.08,
  ),
];
