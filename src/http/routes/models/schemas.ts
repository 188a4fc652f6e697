import { z } from '@hono/zod-openapi';
import { GENERATION_PARAMETERS } from '../../../domain/models/types.js';
import { PaginationSchema } from '../../schemas.js';

const PricingSchema = z
  .union([
    z.object({ kind: z.literal('free') }),
    z.object({ kind: z.literal('per_image'), usd: z.number() }),
    z.object({ kind: z.literal('tiles_and_steps'), usd_per_tile: z.number(), tile_px: z.number(), usd_per_step: z.number() }),
    z.object({ kind: z.literal('per_tile_step'), usd_per_tile_step: z.number(), tile_px: z.number() }),
    z.object({
      kind: z.literal('per_megapixel'),
      usd_per_megapixel: z.number(),
      round_up: z.boolean(),
      megapixel_px: z.number().openapi({ description: 'Pixels in one billed megapixel (1048576 = 1024x1024 for fal and Black Forest Labs)' }),
      first_megapixel_usd: z.number().optional(),
      input_usd_per_megapixel: z.number().optional().openapi({ description: 'Input images billed per megapixel too' }),
    }),
    z.object({ kind: z.literal('by_size'), prices: z.record(z.string(), z.number()), default_usd: z.number() }),
    z.object({
      kind: z.literal('tokens'),
      quality: z.enum(['low', 'medium', 'high']),
      usd_per_million: z.object({ text_input: z.number(), image_input: z.number(), image_output: z.number(), text_output: z.number() }),
    }),
  ])
  .openapi('PricingRule', { description: 'How one image is billed; `cost_per_image` applies it at default settings' });

export const ModelSchema = z
  .object({
    id: z.string().openapi({ example: '@cf/black-forest-labs/flux-1-schnell' }),
    name: z.string(),
    provider: z.string().openapi({ example: 'workers-ai' }),
    provider_name: z.string().openapi({ example: 'Cloudflare Workers AI', description: "The provider's name as people say it" }),
    provider_model: z.string(),
    description: z.string(),
    cost_per_image: z.number().openapi({ description: 'USD per image at default settings' }),
    available: z.boolean(),
    unavailable_reason: z.string().optional(),
    speed: z.enum(['fast', 'medium', 'slow']),
    quality: z.enum(['draft', 'standard', 'high']),
    typical_seconds: z.number(),
    default_width: z.number().int(),
    default_height: z.number().int(),
    min_size: z.number().int(),
    max_width: z.number().int(),
    max_height: z.number().int(),
    sizes: z.array(z.string()).readonly().optional().openapi({ description: 'When present, the only sizes (WIDTHxHEIGHT) the model makes' }),
    default_steps: z.number().int().optional(),
    max_steps: z.number().int().optional(),
    parameters: z.array(z.enum(GENERATION_PARAMETERS)).readonly(),
    size_rule: z
      .object({
        multiple_of: z.number().optional(),
        min_pixels: z.number().optional(),
        max_pixels: z.number().optional(),
        max_aspect_ratio: z.number().optional(),
      })
      .optional()
      .openapi({ description: 'Limits on width x height beyond the range: multiples, pixel count, longest side over shortest' }),
    inputs: z
      .object({
        max_images: z.number().int().openapi({ description: 'Input images it takes (image_ids); 0 for a text-only model' }),
        mask: z.boolean().openapi({ description: 'It inpaints from mask_image_id' }),
        strength: z.boolean().openapi({ description: 'It does image-to-image with a strength 0..1' }),
        input_fidelity: z.boolean().optional().openapi({ description: "It takes OpenAI's input_fidelity" }),
      })
      .openapi('ModelInputs', { description: 'What it takes in; a request with more is refused before any call' }),
    outputs: z
      .object({
        formats: z
          .array(z.enum(['png', 'jpeg', 'webp']))
          .readonly()
          .openapi({ description: 'output_format values (the service converts)' }),
        transparent_background: z.boolean().openapi({ description: 'It takes background: transparent' }),
        quality: z
          .array(z.enum(['low', 'medium', 'high']))
          .readonly()
          .openapi({ description: 'quality levels it takes besides auto; empty when fixed' }),
        partial_images: z.boolean().openapi({ description: 'It streams partial images' }),
      })
      .openapi('ModelOutputs'),
    pricing: PricingSchema,
    pricing_source: z.string(),
    lifecycle: z.enum(['active', 'deprecated', 'shut_down']).openapi({ description: 'A shut-down model is listed (old images name it) but cannot generate' }),
    deprecated_at: z.string().optional().openapi({ example: '2026-06-02' }),
    shutdown_at: z.string().optional().openapi({ example: '2026-12-01' }),
    replacement: z.string().optional().openapi({ description: 'The model to use instead', example: 'openai/gpt-image-2' }),
    warning: z.string().optional().openapi({ description: 'Set for a deprecated or shut-down model' }),
    user_id: z.literal('system'),
  })
  .openapi('Model');

export const ModelListSchema = z.object({ models: z.array(ModelSchema), pagination: PaginationSchema }).openapi('ModelList');
