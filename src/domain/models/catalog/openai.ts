import type { ModelDefinition } from '../types.js';

/*
 * OpenAI Images models.
 *
 * Sources (stored copies read 2026-11-23):
 * - Pricing: https://platform.openai.com/docs/pricing ("Image generation" table, per image by quality and size)
 *   and https://openai.com/api/pricing/.
 * - Request fields and allowed sizes: https://platform.openai.com/docs/api-reference/images/create
 *
 * Neither model takes a seed, a negative prompt, a step count or guidance, and each makes only a few sizes;
 * the adapter sends width x height as `size`. Quality is fixed per model (gpt-image-1 `medium`, dall-e-3
 * `standard`, see OPENAI_QUALITY in the adapter), and the by-size prices below are for that quality.
 * gpt-image-1 is billed in tokens; the per-image figures are OpenAI's own per-image prices for the image
 * output tokens, and leave out the few text-input tokens of the prompt (well under $0.001 per image).
 */

const PRICING = 'https://platform.openai.com/docs/pricing';

export const openAiModels: readonly ModelDefinition[] = [
  // Medium quality: 1024x1024 $0.042; 1024x1536 and 1536x1024 $0.063.
  {
    id: 'openai/gpt-image-1',
    name: 'GPT Image 1',
    provider: 'openai',
    provider_model: 'gpt-image-1',
    description: "OpenAI's natively multimodal image model: strong prompt following and legible text in images, at medium quality; square, portrait or landscape only.",
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
  },
  // Standard quality: 1024x1024 $0.040; 1024x1792 and 1792x1024 $0.080.
  {
    id: 'openai/dall-e-3',
    name: 'DALL-E 3',
    provider: 'openai',
    provider_model: 'dall-e-3',
    description: "OpenAI's DALL-E 3 at standard quality; OpenAI rewrites the prompt before drawing it. Square, portrait or landscape only.",
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
  },
];
