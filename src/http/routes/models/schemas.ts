import { z } from '@hono/zod-openapi';
import { GENERATION_PARAMETERS } from '../../../domain/models/types.js';
import { PaginationSchema } from '../../schemas.js';

const PricingSchema = z
  .union([
    z.object({ kind: z.literal('free') }),
    z.object({ kind: z.literal('per_image'), usd: z.number() }),
    z.object({ kind: z.literal('tiles_and_steps'), usd_per_tile: z.number(), tile_px: z.number(), usd_per_step: z.number() }),
    z.object({ kind: z.literal('per_megapixel'), usd_per_megapixel: z.number(), round_up: z.boolean() }),
    z.object({ kind: z.literal('by_size'), prices: z.record(z.string(), z.number()), default_usd: z.number() }),
  ])
  .openapi('PricingRule', { description: 'How one image is billed; `cost_per_image` applies it at default settings' });

export const ModelSchema = z
  .object({
    id: z.string().openapi({ example: '@cf/black-forest-labs/flux-1-schnell' }),
    name: z.string(),
    provider: z.string().openapi({ example: 'workers-ai' }),
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
    pricing: PricingSchema,
    pricing_source: z.string(),
    user_id: z.literal('system'),
  })
  .openapi('Model');

export const ModelListSchema = z.object({ models: z.array(ModelSchema), pagination: PaginationSchema }).openapi('ModelList');
