import { z } from '@hono/zod-openapi';
import { GENERATION_WEBHOOK_EVENTS } from '../../../ports/db/generations.js';
import { ImageSchema, PageQuerySchema, PaginationSchema, WebhookDeliverySchema } from '../../schemas.js';

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

export const GenerationSchema = z
  .object({
    id: z.string().openapi({ example: 'gen_01jd5x4yq8r2b9c3d4e5f6g7h8' }),
    status: z.enum(STATUSES).openapi({ description: 'queued, then running, then succeeded, failed or cancelled' }),
    model: z.string(),
    prompt: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    queue_position: z.number().int().optional().openapi({ description: 'While queued: how many generations will start before this one' }),
    progress: z.number().optional().openapi({ description: '0 to 1, where the provider reports progress' }),
    image_id: z.string().openapi({ description: 'The id its image has (or will have) in the gallery' }),
    image: ImageSchema.optional().openapi({ description: 'The image, once succeeded' }),
    error: z
      .object({ error: z.string(), code: z.string(), details: z.unknown().optional() })
      .optional()
      .openapi({ description: 'Once failed or cancelled: the error a waiting caller got' }),
    deadline_at: z
      .string()
      .optional()
      .openapi({ description: 'When deadline_seconds was given: still queued at this time, the generation is cancelled without running' }),
    batch_id: z.string().optional().openapi({ description: "When it runs a batch's prompt: the batch" }),
    batch_index: z.number().int().optional().openapi({ description: "When it runs a batch's prompt: the prompt's index in the batch" }),
  })
  .openapi('Generation');

export const GenerationDetailSchema = GenerationSchema.extend({
  webhook: z
    .object({
      url: z.string(),
      events: z.array(z.enum(GENERATION_WEBHOOK_EVENTS)),
      deliveries: z.array(WebhookDeliverySchema).openapi({ description: 'One per event sent, with every attempt' }),
    })
    .optional()
    .openapi({ description: 'When the generation was given a webhook_url: where its events go, and how each delivery went' }),
}).openapi('GenerationDetail');

export const GenerationIdParamSchema = z.object({
  id: z
    .string()
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'gen_01jd5x4yq8r2b9c3d4e5f6g7h8' }),
});

export const GenerationListQuerySchema = PageQuerySchema.extend({
  status: z.enum(STATUSES, { error: `status must be one of ${STATUSES.join(', ')}` }).optional(),
});

export const GenerationListSchema = z.object({ generations: z.array(GenerationSchema), pagination: PaginationSchema }).openapi('GenerationList');

/** Where a generation is followed: its resource, answered as `Location` with every 202. */
export const generationLocation = (id: string): string => `/api/generations/${encodeURIComponent(id)}`;
