import { z } from '@hono/zod-openapi';

export const RangeQuerySchema = z.object({
  from: z
    .string()
    .optional()
    .openapi({ param: { description: 'Inclusive start: a date (2026-11-01) or a UTC timestamp' }, example: '2026-11-01' }),
  to: z
    .string()
    .optional()
    .openapi({ param: { description: 'End: a date includes that whole day; a timestamp is exclusive' }, example: '2026-11-30' }),
});

const bucket = { images: z.number().int(), cost: z.number() };

const LedgerTotalSchema = z.object({ charges: z.number().int(), cost: z.number() }).openapi('LedgerTotal');

export const UsageSchema = z
  .object({
    user_id: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    total_images: z.number().int().openapi({ description: 'Images generated in the range, deleted ones included' }),
    active_images: z.number().int(),
    deleted_images: z.number().int(),
    total_cost: z.number(),
    by_model: z.array(z.object({ model: z.string(), ...bucket, deleted_images: z.number().int() })),
    by_day: z.array(z.object({ date: z.string(), ...bucket, deleted_images: z.number().int() })),
    by_day_and_model: z
      .array(z.object({ date: z.string(), model: z.string(), ...bucket, deleted_images: z.number().int() }))
      .openapi({ description: 'Each UTC day split by model (days in order, then models by id): enough to draw a chart stacked by model' }),
  })
  .openapi('UsageReport');

export const CostsSchema = z
  .object({
    total_cost: z.number().openapi({ description: 'USD, soft-deleted images included' }),
    total_images: z.number().int(),
    average_cost: z.number().openapi({ description: 'USD per image; 0 when there are no images' }),
    currency: z.literal('USD'),
    from: z.string().nullable(),
    to: z.string().nullable(),
    key_id: z.string().nullable().openapi({ description: 'The key the report is limited to (`?key_id=`), or null for all your keys' }),
    by_model: z.array(z.object({ model: z.string(), ...bucket, average_cost: z.number() })),
    by_day: z.array(z.object({ date: z.string(), ...bucket, average_cost: z.number() })),
    ledger: z.object({ charged_without_image: LedgerTotalSchema, uncertain: LedgerTotalSchema, in_flight: LedgerTotalSchema }).openapi({
      description:
        'From the charge ledger: paid calls that left no image (included in the costs above), calls whose outcome is unknown (included, at their estimate), and reservations still running (not included yet)',
    }),
  })
  .openapi('CostReport');

export const CostsQuerySchema = RangeQuerySchema.extend({
  key_id: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { description: 'Only what this key of yours spent' }, example: 'key_01jd...' }),
});
