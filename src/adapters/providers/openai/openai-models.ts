import type { ModelDefinition } from '../../../domain/models/types.js';

/*
 * OpenAI Images models, `POST /v1/images/generations` and, with input images, `POST /v1/images/edits`. Sources,
 * read 2026-11-23 (the images-in bullet 2026-11-24):
 *
 * - Models, sizes and request fields: openai/openai-node src/resources/images.ts at 7b7d6ca (2026-08-21): ImageModel
 *   lists gpt-image-2 and its snapshot gpt-image-2-2026-04-21; for them `size` is any `WIDTHxHEIGHT` "divisible by
 *   16", aspect ratio "between 1:3 and 3:1", at most 3840x2160, "and must also satisfy the model's current pixel
 *   and edge limits"; `quality` low/medium/high/auto; `output_format` png/jpeg/webp; GPT image models always answer
 *   base64; the answer's `usage` reports input/output tokens with text/image details.
 * - The pixel limits the SDK does not state (655,360 to 8,294,400 pixels, longest edge 3,840) come from the formula
 *   behind OpenAI's own size calculator as posted in OpenAI's developer forum (community.openai.com/t/1382699,
 *   2026-06-05); OpenAI's image-generation guide itself was not among the stored sources. The shortest possible
 *   side follows: 480 (480x1440 is 691,200 pixels at 3:1).
 * - Pricing (per million tokens): text input $5, image input $8, image output $30, text output $10. OpenAI's own
 *   pricing page was not among the stored sources; the figures are from copies that say they follow it
 *   (xairouter.com/en/models/gpt-image-2, fal.ai/models/openai/gpt-image-2/llms.txt), which agree.
 *   The cost at default settings estimates image output tokens (estimateImageTokens in domain/models/pricing.ts, medium
 *   1024x1024 = 1,756 tokens = $0.05268); the cost recorded for an image uses the tokens OpenAI reports.
 * - Lifecycle: OpenAI's deprecations page (https://platform.openai.com/docs/deprecations), as summarised by stored
 *   copies: the 2026-06-02 notice retires gpt-image-1.5, gpt-image-1-mini and chatgpt-image-latest on 2026-12-01
 *   (aiweekly.co, spybara.com diff of deprecations.md 2026-06-02..03), gpt-image-1 shut down 2026-10-23 and
 *   dall-e-3 on 2026-05-12 (weighmyprompt.com/deprecations). gpt-image-1-mini and chatgpt-image-latest were never
 *   in this catalogue and are not added for their last week.
 * - Images in (gpt-image-2 and its snapshot): the same src/resources/images.ts, ImageEditParams: `POST /images/edits`
 *   takes up to 16 `image` files for the GPT image models ("You can provide up to 16 images"), a `mask` PNG "whose
 *   fully transparent areas ... indicate where `image` should be edited" (imagegate's own mask semantics), and
 *   `input_fidelity`; both endpoints take `quality` low/medium/high/auto and `background` transparent/opaque/auto
 *   (transparent "in preview" for gpt-image-2). There is no strength: an edit is guided by the prompt alone.
 *   Input images are billed as image input tokens, which OpenAI reports in `usage.input_tokens_details`.
 *
 * The cost shown before a call estimates at the quality asked (`medium` when none is asked: the adapter's default);
 * the cost recorded uses the tokens OpenAI reports. gpt-image-1.5 keeps a fixed `medium` and takes no input images:
 * its per-image prices are for medium quality only and leave out input tokens, and it retires on 2026-12-01.
 * No GPT image model takes a seed, a negative prompt, a step count or guidance.
 */

const PRICING = 'https://platform.openai.com/docs/pricing';
const TOKEN_RATES = { text_input: 5, image_input: 8, image_output: 30, text_output: 10 } as const;

const gptImage2 = (id: string, name: string, description: string): ModelDefinition => ({
  id: `openai/${id}`,
  name,
  provider: 'openai',
  provider_model: id,
  description,
  speed: 'slow',
  quality: 'high',
  typical_seconds: 30,
  default_width: 1024,
  default_height: 1024,
  min_size: 480,
  max_width: 3840,
  max_height: 3840,
  size_rule: { multiple_of: 16, min_pixels: 655_360, max_pixels: 8_294_400, max_aspect_ratio: 3 },
  parameters: ['width', 'height'],
  pricing: { kind: 'tokens', quality: 'medium', usd_per_million: TOKEN_RATES },
  pricing_source: PRICING,
  inputs: { max_images: 16, mask: true, strength: false, input_fidelity: true },
  // Streamed by /v1/images/generations and /v1/images/edits with `stream: true` and `partial_images` 1..3.
  outputs: { transparent_background: true, quality: ['low', 'medium', 'high'], partial_images: true },
});

export const openAiModels: readonly ModelDefinition[] = [
  gptImage2(
    'gpt-image-2',
    'GPT Image 2',
    "OpenAI's current image model: strong prompt following and legible text, any size in steps of 16 up to 3840 px and 3:1, low to high quality, edits of up to 16 images with an optional mask; billed in tokens.",
  ),
  // The pinned snapshot the alias pointed to when read; same limits and prices.
  gptImage2(
    'gpt-image-2-2026-04-21',
    'GPT Image 2 (2026-04-21 snapshot)',
    'The 2026-04-21 snapshot of GPT Image 2, for results that do not change when OpenAI moves the gpt-image-2 alias.',
  ),
  // Per-image prices at medium quality, from OpenAI's per-image table as copied by docs.apiyi.com
  // (api-capabilities/gpt-image-2/historical-versions): 1024x1024 $0.034, 1024x1536 and 1536x1024 $0.050.
  {
    id: 'openai/gpt-image-1.5',
    name: 'GPT Image 1.5',
    provider: 'openai',
    provider_model: 'gpt-image-1.5',
    description: 'The previous GPT image model at medium quality; square, portrait or landscape only. Retired by OpenAI on 2026-12-01.',
    speed: 'slow',
    quality: 'high',
    typical_seconds: 30,
    default_width: 1024,
    default_height: 1024,
    min_size: 1024,
    max_width: 1536,
    max_height: 1536,
    sizes: ['1024x1024', '1536x1024', '1024x1536'],
    parameters: ['width', 'height'],
    pricing: { kind: 'by_size', prices: { '1024x1024': 0.034, '1536x1024': 0.05, '1024x1536': 0.05 }, default_usd: 0.05 },
    pricing_source: PRICING,
    deprecated_at: '2026-06-02',
    shutdown_at: '2026-12-01',
    replacement: 'openai/gpt-image-2',
  },
  // Shut down: kept so images made with it still name a model that can be read. Prices as they were billed.
  {
    id: 'openai/gpt-image-1',
    name: 'GPT Image 1',
    provider: 'openai',
    provider_model: 'gpt-image-1',
    description: "OpenAI's first GPT image model (medium quality). Shut down by OpenAI on 2026-10-23.",
    speed: 'slow',
    quality: 'high',
    typical_seconds: 30,
    default_width: 1024,
    default_height: 1024,
    min_size: 1024,
    max_width: 1536,
    max_height: 1536,
    sizes: ['1024x1024', '1536x1024', '1024x1536'],
    parameters: ['width', 'height'],
    pricing: { kind: 'by_size', prices: { '1024x1024': 0.042, '1536x1024': 0.063, '1024x1536': 0.063 }, default_usd: 0.063 },
    pricing_source: PRICING,
    shutdown_at: '2026-10-23',
    replacement: 'openai/gpt-image-2',
  },
  {
    id: 'openai/dall-e-3',
    name: 'DALL-E 3',
    provider: 'openai',
    provider_model: 'dall-e-3',
    description: "OpenAI's DALL-E 3 at standard quality. Shut down by OpenAI on 2026-05-12.",
    speed: 'medium',
    quality: 'standard',
    typical_seconds: 12,
    default_width: 1024,
    default_height: 1024,
    min_size: 1024,
    max_width: 1792,
    max_height: 1792,
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    parameters: ['width', 'height'],
    pricing: { kind: 'by_size', prices: { '1024x1024': 0.04, '1792x1024': 0.08, '1024x1792': 0.08 }, default_usd: 0.08 },
    pricing_source: PRICING,
    shutdown_at: '2026-05-12',
    replacement: 'openai/gpt-image-2',
  },
];
