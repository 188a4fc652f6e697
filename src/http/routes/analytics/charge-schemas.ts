import { z } from '@hono/zod-openapi';
import { PageQuerySchema, PaginationSchema } from '../../schemas.js';
import { RangeQuerySchema } from './schemas.js';

const OUTCOMES = ['reserved', 'succeeded', 'not_charged', 'charged_no_image', 'uncertain'] as const;

export const ChargesQuerySchema = PageQuerySchema.merge(RangeQuerySchema).extend({
  key_id: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { description: 'Only the charges of this key of yours' } }),
  outcome: z
    .enum(OUTCOMES, { error: () => `outcome must be one of ${OUTCOMES.join(', ')}` })
    .optional()
    .openapi({ param: { description: 'Only charges with this outcome; `uncertain` lists the calls to check against the provider' } }),
});

export const ChargeSchema = z
  .object({
    id: z.string(),
    key_id: z.string().nullable(),
    image_id: z.string().nullable().openapi({ description: 'The image the call made; null unless the outcome is `succeeded`' }),
    model: z.string(),
    provider: z.string(),
    provider_job_id: z.string().nullable().openapi({ description: "The provider's own id for the job (a Replicate prediction), when it has one" }),
    estimated_cost: z.number().openapi({ description: 'USD, the catalogue estimate reserved before the call' }),
    cost: z.number().openapi({ description: 'USD it counts for: the estimate while reserved or uncertain, what it cost once settled, 0 when not charged' }),
    outcome: z.enum(OUTCOMES).openapi({
      description:
        '`reserved`: running; `succeeded`: image made; `not_charged`: refused or failed before the provider accepted it; `charged_no_image`: accepted and billed, but no image (cancelled, timed out); `uncertain`: the answer was lost after the request was sent, so the provider may have billed it',
    }),
    error: z.string().nullable(),
    created_at: z.string(),
    settled_at: z.string().nullable(),
  })
  .openapi('Charge');

export const ChargeListSchema = z.object({ charges: z.array(ChargeSchema), pagination: PaginationSchema }).openapi('ChargeList');
