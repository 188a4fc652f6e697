import { z } from '@hono/zod-openapi';
import { GenerationOptionsSchema, PaginationSchema, ParametersSchema, WebhookDeliverySchema, WebhookUrlSchema } from '../../schemas.js';
import { ImageInputFields } from '../images/schemas.js';

const fields = {
  prompts: z
    .array(z.string())
    .openapi({ description: 'Each checked like a /api/generate prompt; at most BATCH_MAX_PROMPTS (default 100)', example: ['a red fox', 'a blue whale'] }),
  model: z.string().optional().openapi({ example: 'local/procedural' }),
  template_id: z.string().optional(),
  webhook_url: WebhookUrlSchema.optional().openapi({
    description: 'Receives the signed batch.completed (or batch.cancelled) event',
    example: 'https://example.com/hooks/imagegate',
  }),
  ...ImageInputFields,
  ...GenerationOptionsSchema.shape,
};
export const BATCH_DESCRIPTION =
  'Validates every prompt, the model and the webhook URL, then queues the prompts and answers at once. ' +
  'Both batch paths are the same operation; `name` is optional on /api/batch/generate.';

const name = z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');

export const CreateBatchSchema = z.strictObject({ name: name.openapi({ example: 'Spring campaign' }), ...fields }).openapi('CreateBatch');
export const GenerateBatchSchema = z.strictObject({ name: name.optional(), ...fields }).openapi('GenerateBatch');

export const BatchSchema = z
  .object({
    id: z.string().openapi({ example: 'batch_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
    batch_id: z.string(),
    name: z.string(),
    model: z.string(),
    template_id: z.string().nullable(),
    parameters: ParametersSchema,
    status: z.enum(['queued', 'processing', 'completed', 'cancelled']),
    total_prompts: z.number().int(),
    completed_count: z.number().int(),
    failed_count: z.number().int(),
    webhook_url: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi('Batch');

const BatchImageSchema = z.object({ id: z.string(), prompt: z.string(), r2_url: z.string() });

export const BatchDetailSchema = BatchSchema.extend({
  images: z.array(BatchImageSchema),
  items: z.array(
    z.object({
      index: z.number().int(),
      prompt: z.string(),
      status: z.enum(['pending', 'running', 'succeeded', 'failed', 'cancelled']),
      image_id: z.string(),
      image: BatchImageSchema.nullable(),
      error: z.string().nullable(),
      generation_id: z.string().optional().openapi({ description: 'The generation that runs this prompt: follow it live at /api/generations/{id}/events' }),
    }),
  ),
  errors: z.array(z.object({ index: z.number().int(), prompt: z.string(), error: z.string() })),
  webhook: z.object({
    deliveries: z.array(WebhookDeliverySchema),
  }),
}).openapi('BatchDetail');

export const BatchListSchema = z.object({ batches: z.array(BatchSchema), pagination: PaginationSchema }).openapi('BatchList');
export const BatchIdParamSchema = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
