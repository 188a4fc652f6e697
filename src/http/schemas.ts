import { z } from '@hono/zod-openapi';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../domain/pagination.js';
import { GENERATION_PARAMETERS } from '../domain/models/types.js';

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: 'Invalid prompt' }),
    details: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
    code: z.string().openapi({ example: 'INVALID_PARAMETER' }),
  })
  .openapi('Error');

/** Largest `offset` accepted: far beyond any real gallery, and exactly representable everywhere. */
export const MAX_OFFSET = 1_000_000_000;

/** A whole number in a query string, within bounds, with a message that says what to send. */
export const queryInteger = (name: string, min: number, max: number) =>
  z.string({ error: `${name} must be given once, as a whole number from ${min} to ${max}` }).transform((text, ctx) => {
    const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const got = text === '' ? 'nothing' : text.length > 20 ? `a ${text.length}-character value` : JSON.stringify(text);
      ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max} (got ${got})` });
      return z.NEVER;
    }
    return value;
  });

export const PageQuerySchema = z.object({
  limit: queryInteger('limit', 1, MAX_LIMIT)
    .optional()
    .openapi({ param: { description: `Page size, 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}` }, type: 'integer', minimum: 1, maximum: MAX_LIMIT, example: 20 }),
  offset: queryInteger('offset', 0, MAX_OFFSET)
    .optional()
    .openapi({ param: { description: `Number of results to skip, 0 to ${MAX_OFFSET}, default 0` }, type: 'integer', minimum: 0, maximum: MAX_OFFSET, example: 0 }),
});

export const pageRequest = (query: { limit?: number | undefined; offset?: number | undefined }) => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  offset: query.offset ?? 0,
});

export const PaginationSchema = z
  .object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int(), has_more: z.boolean() })
  .openapi('Pagination');

export const ParametersSchema = z
  .object(Object.fromEntries(GENERATION_PARAMETERS.map((name) => [name, z.union([z.number(), z.string()]).optional()])))
  .openapi('ImageParameters', { description: 'Generation parameters actually used' });

/** No model makes more; within this, each model's own size range is checked and named in the error. */
const MAX_SIDE = 8192;

/** The optional generation settings of `/api/generate`, reused by templates. */
export const GenerationOptionsSchema = z.object({
  width: z.number().int().min(1).max(MAX_SIDE).optional().openapi({ description: "Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)", example: 512 }),
  height: z.number().int().min(1).max(MAX_SIDE).optional().openapi({ description: "Pixels; each model's own range applies (`min_size`, `max_height`)", example: 512 }),
  seed: z.number().int().min(0).max(4_294_967_295).optional().openapi({ description: 'Same prompt and seed give the same image on deterministic models' }),
  negative_prompt: z.string().max(2000).optional(),
  steps: z.number().int().min(1).max(100).optional(),
  guidance: z.number().min(0).max(30).optional(),
});

export const ImageSchema = z
  .object({
    id: z.string().openapi({ example: 'img_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
    prompt: z.string(),
    model: z.string().openapi({ example: 'local/procedural' }),
    r2_key: z.string().openapi({ example: 'generated/img_01jc4x1q7z3m9r4f2k8t6v5w0y.png' }),
    r2_url: z.string().openapi({ example: 'http://localhost:8787/files/generated/img_01jc4x1q7z3m9r4f2k8t6v5w0y.png' }),
    width: z.number().int(),
    height: z.number().int(),
    created_at: z.string().openapi({ example: '2026-11-23T10:00:00.000Z' }),
    user_id: z.string(),
    cost: z.number().openapi({ description: 'USD' }),
    is_deleted: z.boolean(),
    template_id: z.string().nullable(),
    parameters: ParametersSchema,
    metadata: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi('Image');

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

/** The error answers every API route can give, for the OpenAPI document. */
export const errorResponses = {
  400: jsonContent(ErrorSchema, 'Invalid parameters or request format'),
  401: jsonContent(ErrorSchema, 'Missing or invalid API key (key-based mode)'),
  403: jsonContent(ErrorSchema, 'IP not allowed (plain text `Forbidden`) or insufficient permissions'),
  404: jsonContent(ErrorSchema, 'Resource does not exist'),
  500: jsonContent(ErrorSchema, 'Internal server error'),
} as const;
