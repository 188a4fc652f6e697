import type { ModelDefinition, PricingRule } from '../../../domain/models/types.js';
import { gemini25Sizes, gemini3Sizes, IMAGEN_SIZES, longestSide, pricesByTier, shortestSide, type SizeMenu } from './google-sizes.js';

/*
 * Google's image models on the Gemini API (`POST /v1beta/models/{model}:generateContent`). Read 2026-11-27.
 *
 * - Models and lifecycle: Google's Gemini API changelog (https://ai.google.dev/gemini-api/docs/changelog, stored
 *   copies up to its 2026-10-26 entry): 2026-05-28 gemini-3.1-flash-image (Nano Banana 2) and gemini-3-pro-image
 *   (Nano Banana Pro) GA, their -preview models deprecated and shut down 2026-06-25; 2026-06-15 Imagen 4
 *   (imagen-4.0-generate-001, -ultra-, -fast-) deprecated, shut down 2026-08-17; 2026-06-30 gemini-3.1-flash-lite-image
 *   (Nano Banana 2 Lite) GA; 2026-10-06 gemini-nano-banana-2.1 GA and gemini-3.1-flash-image deprecated for it.
 *   Google's deprecations page (https://ai.google.dev/gemini-api/docs/deprecations) gives gemini-2.5-flash-image's
 *   shutdown as 2026-10-02 and no date for gemini-3-pro-image. googleapis/js-genai removed generateImages (Imagen's
 *   `:predict`) for the Gemini API at 9ca6086 (2026-08-21): no Imagen model is left to call there.
 * - Not confirmed on a Google page among the stored sources: gemini-3.1-flash-image's shutdown on 2026-10-29 (LiteLLM's
 *   Nano Banana 2.1 post of 2026-10-06 and a live snapshot in skills.sh/jpcaparas/skills/nanobanana of 2026-10-18 both
 *   give it); that gemini-2.5-flash-image did shut down on its announced day.
 * - Pricing (https://ai.google.dev/gemini-api/docs/pricing): Google bills image output tokens, a fixed count per image
 *   by its tier. Google's own page for the newest models was not among the stored sources; the figures are from copies
 *   that agree. Nano Banana 2.1: $30 per million, $0.0336 a 1K image (LiteLLM docs, 2026-10-06) and $0.1134 a 4K one
 *   (inference.sh, 2026-11-06; fal.ai's guide gives the same two at its own rate); its 2K price was found nowhere, so
 *   2K is not offered. Nano Banana Pro: $120 per million, 1,120 tokens at 1K and 2K ($0.1344), 2,000 at 4K ($0.24)
 *   (the image-generation guide's token table; blog.laozhang.ai checked against Google on 2026-07-01). Nano Banana 2
 *   Lite: $30 per million, $0.034 a 1K image (muapi.ai; ngrok's AI Gateway changelog gives the rate), taken as 1,120
 *   tokens like the other Gemini 3 1K images; its model page (https://ai.google.dev/gemini-api/docs/models/
 *   gemini-3.1-flash-lite-image, June 2026) says it makes 1K only, in the ten standard ratios. Shut down, as billed: Nano Banana 2 $60 per million at 1,120 / 1,680 /
 *   2,520 tokens for 1K / 2K / 4K (Google Cloud's Gemini 3.1 Flash Image page, and the $0.067 / $0.101 / $0.151 quoted
 *   from Google's pricing page; the stored copy of the guide's table gives 1,120 and 2,000 for 2K and 4K); Gemini 2.5 Flash Image 1,290 tokens at
 *   $30 per million ($0.039); Imagen 4 Fast $0.02, Standard $0.04, Ultra $0.06 per image (Google's pricing page as
 *   quoted on discuss.ai.google.dev).
 * - None of the existing pricing kinds fits Google's tokens: `tokens` estimates with OpenAI's size formula. So each
 *   model is priced per image (`by_size`, or `per_image` with one tier) at Google's tokens per image. The recorded cost
 *   leaves out what a call also bills in tokens: the prompt's text and input images (Nano Banana 2.1 $1.50 per million)
 *   and thinking tokens, a fraction of a cent a call. A refused answer (a safety block) is a 200 that Google bills by
 *   its tokens (its billing FAQ exempts only answers that fail with 4xx or 5xx), but imagegate records refusals as
 *   costing nothing: the refusal's message names the tokens Google billed.
 * - Input images (https://ai.google.dev/gemini-api/docs/image-generation): Gemini 3 image models take up to 14
 *   reference images (Nano Banana 2 and 2.1: 10 objects and 4 characters; Pro: 6 objects and 5 characters), Gemini
 *   2.5 Flash Image up to 3. Nano Banana 2 Lite's limit is not stated: it is given the 3 of the model Google replaces
 *   with it. There is no mask and no strength: an edit is guided by the prompt.
 * - Every image carries SynthID, Google's invisible watermark (Lite adds C2PA): said in each description.
 */

const PRICING = 'https://ai.google.dev/gemini-api/docs/pricing';
const SYNTHID = "Every image carries SynthID, Google's invisible watermark.";

interface GeminiSpec {
  model: string;
  name: string;
  description: string;
  speed: ModelDefinition['speed'];
  quality: ModelDefinition['quality'];
  typical_seconds: number;
  menu: SizeMenu;
  pricing: PricingRule;
  maxImages: number;
  lifecycle?: Pick<ModelDefinition, 'deprecated_at' | 'shutdown_at' | 'replacement'>;
}

/** The sizes each Gemini model makes, by provider model, filled as the entries below are built. */
const menus = new Map<string, SizeMenu>();
/** A Gemini model's sizes, each with the `imageConfig` that asks for it (what the adapter sends). */
export const sizeMenuOf = (providerModel: string): SizeMenu | undefined => menus.get(providerModel);

function gemini(spec: GeminiSpec): ModelDefinition {
  menus.set(spec.model, spec.menu);
  const sizes = [...spec.menu.keys()];
  const longest = longestSide(sizes);
  return {
    id: `google/${spec.model}`,
    name: spec.name,
    provider: 'google',
    provider_model: spec.model,
    description: `${spec.description} ${SYNTHID}`,
    speed: spec.speed,
    quality: spec.quality,
    typical_seconds: spec.typical_seconds,
    default_width: 1024,
    default_height: 1024,
    min_size: shortestSide(sizes),
    max_width: longest,
    max_height: longest,
    sizes,
    parameters: ['width', 'height'],
    pricing: spec.pricing,
    pricing_source: PRICING,
    inputs: { max_images: spec.maxImages, mask: false, strength: false },
    ...spec.lifecycle,
  };
}

const byTier = (menu: SizeMenu, usd: Parameters<typeof pricesByTier>[1]): PricingRule => {
  const prices = pricesByTier(menu, usd);
  return { kind: 'by_size', prices, default_usd: Math.max(...Object.values(prices)) };
};

const NB21 = gemini3Sizes(['1K', '4K'], { panoramic: true, sendsTier: true });
const PRO = gemini3Sizes(['1K', '2K', '4K'], { panoramic: false, sendsTier: true });
const LITE = gemini3Sizes(['1K'], { panoramic: false, sendsTier: false });
const NB2 = gemini3Sizes(['1K', '2K', '4K'], { panoramic: true, sendsTier: true });
const NB2_USD = { '1K': 0.0672, '2K': 0.1008, '4K': 0.1512 };
const PRO_USD = { '1K': 0.1344, '2K': 0.1344, '4K': 0.24 };

const geminiModels: readonly ModelDefinition[] = [
  gemini({
    model: 'gemini-nano-banana-2.1',
    name: 'Nano Banana 2.1 (Gemini)',
    description:
      "Google's current fast image model: generation and conversational edits of up to 14 reference images, legible text, 14 aspect ratios at 1K or 4K (2K not offered: its price is unconfirmed).",
    speed: 'fast',
    quality: 'high',
    typical_seconds: 12,
    menu: NB21,
    pricing: byTier(NB21, { '1K': 0.0336, '4K': 0.1134 }),
    maxImages: 14,
  }),
  gemini({
    model: 'gemini-3-pro-image',
    name: 'Nano Banana Pro (Gemini 3 Pro Image)',
    description:
      "Google's highest-quality image model, which thinks before it draws: dense text, diagrams and layouts, edits of up to 14 reference images, 10 aspect ratios at 1K, 2K or 4K.",
    speed: 'slow',
    quality: 'high',
    typical_seconds: 25,
    menu: PRO,
    pricing: byTier(PRO, PRO_USD),
    maxImages: 14,
  }),
  gemini({
    model: 'gemini-3.1-flash-lite-image',
    name: 'Nano Banana 2 Lite (Gemini 3.1 Flash Lite Image)',
    description: "Google's fastest and cheapest image model (about 4 seconds): 1K images in 10 aspect ratios, quick edits.",
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 4,
    menu: LITE,
    pricing: { kind: 'per_image', usd: 0.0336 },
    maxImages: 3,
  }),
  gemini({
    model: 'gemini-3.1-flash-image',
    name: 'Nano Banana 2 (Gemini 3.1 Flash Image)',
    description: 'Nano Banana 2, replaced by Nano Banana 2.1. Deprecated by Google on 2026-10-06 and shut down on 2026-10-29.',
    speed: 'fast',
    quality: 'high',
    typical_seconds: 12,
    menu: NB2,
    pricing: byTier(NB2, NB2_USD),
    maxImages: 14,
    lifecycle: { deprecated_at: '2026-10-06', shutdown_at: '2026-10-29', replacement: 'google/gemini-nano-banana-2.1' },
  }),
  gemini({
    model: 'gemini-3.1-flash-image-preview',
    name: 'Nano Banana 2 preview',
    description: 'The preview of Nano Banana 2. Shut down by Google on 2026-06-25.',
    speed: 'fast',
    quality: 'high',
    typical_seconds: 12,
    menu: NB2,
    pricing: byTier(NB2, NB2_USD),
    maxImages: 14,
    lifecycle: { deprecated_at: '2026-05-28', shutdown_at: '2026-06-25', replacement: 'google/gemini-nano-banana-2.1' },
  }),
  gemini({
    model: 'gemini-3-pro-image-preview',
    name: 'Nano Banana Pro preview',
    description: 'The preview of Nano Banana Pro. Shut down by Google on 2026-06-25.',
    speed: 'slow',
    quality: 'high',
    typical_seconds: 25,
    menu: PRO,
    pricing: byTier(PRO, PRO_USD),
    maxImages: 14,
    lifecycle: { deprecated_at: '2026-05-28', shutdown_at: '2026-06-25', replacement: 'google/gemini-3-pro-image' },
  }),
  gemini({
    model: 'gemini-2.5-flash-image',
    name: 'Nano Banana (Gemini 2.5 Flash Image)',
    description: 'The first Nano Banana, about one megapixel in 10 aspect ratios. Shut down by Google on 2026-10-02.',
    speed: 'fast',
    quality: 'standard',
    typical_seconds: 8,
    menu: gemini25Sizes(),
    pricing: { kind: 'per_image', usd: 0.0387 },
    maxImages: 3,
    lifecycle: { shutdown_at: '2026-10-02', replacement: 'google/gemini-3.1-flash-lite-image' },
  }),
];

/** Imagen 4 on the Gemini API (`:predict`): shut down, kept so the catalogue says so. Never called by the adapter. */
const imagen = (model: string, name: string, usd: number, replacement: string): ModelDefinition => ({
  id: `google/${model}`,
  name,
  provider: 'google',
  provider_model: model,
  description: `${name}, Google's text-to-image model before the Gemini image models. Deprecated on 2026-06-15 and shut down on the Gemini API on 2026-08-17. ${SYNTHID}`,
  speed: 'medium',
  quality: 'high',
  typical_seconds: 8,
  default_width: 1024,
  default_height: 1024,
  min_size: 768,
  max_width: 1408,
  max_height: 1408,
  sizes: IMAGEN_SIZES,
  parameters: ['width', 'height'],
  pricing: { kind: 'per_image', usd },
  pricing_source: PRICING,
  deprecated_at: '2026-06-15',
  shutdown_at: '2026-08-17',
  replacement,
});

export const googleModels: readonly ModelDefinition[] = [
  ...geminiModels,
  imagen('imagen-4.0-generate-001', 'Imagen 4', 0.04, 'google/gemini-nano-banana-2.1'),
  imagen('imagen-4.0-ultra-generate-001', 'Imagen 4 Ultra', 0.06, 'google/gemini-3-pro-image'),
  imagen('imagen-4.0-fast-generate-001', 'Imagen 4 Fast', 0.02, 'google/gemini-nano-banana-2.1'),
];
