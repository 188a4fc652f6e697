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
    .openapi({
      param: { description: `Page size, 1 to ${MAX_LIMIT}, default ${DEFAULT_LIMIT}` },
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      example: 20,
    }),
  offset: queryInteger('offset', 0, MAX_OFFSET)
    .optional()
    .openapi({
      param: { description: `Number of results to skip, 0 to ${MAX_OFFSET}, default 0` },
      type: 'integer',
      minimum: 0,
      maximum: MAX_OFFSET,
      example: 0,
    }),
});

export const pageRequest = (query: { limit?: number | undefined; offset?: number | undefined }) => ({
  limit: query.limit ?? DEFAULT_LIMIT,
  offset: query.offset ?? 0,
});

export const PaginationSchema = z
  .object({ limit: z.number().int(), offset: z.number().int(), total: z.number().int(), has_more: z.boolean() })
  .openapi('Pagination');

/** Parameters a record may show beyond the model's optional ones: image inputs and output options. */
const RECORDED_PARAMETERS = ['strength', 'quality', 'background', 'output_format', 'output_compression', 'input_fidelity', 'mask_image_id'] as const;

export const ParametersSchema = z
  .object({
    ...Object.fromEntries([...GENERATION_PARAMETERS, ...RECORDED_PARAMETERS].map((name) => [name, z.union([z.number(), z.string()]).optional()])),
    image_ids: z.array(z.string()).optional().openapi({ description: "A batch's input images, given to every prompt" }),
  })
  .openapi('ImageParameters', { description: 'Generation parameters actually used' });

/** No model makes more; within this, each model's own size range is checked and named in the error. */
const MAX_SIDE = 8192;

/** The optional generation settings of `/api/generate`, reused by templates. */
/**
 * A webhook URL's form, for every body that takes one (batches, single generations); where it may point (the SSRF
 * rules) is checked by the verb, with the transport that will deliver to it.
 */
export const WebhookUrlSchema = z.url({ protocol: /^https?$/, error: 'webhook_url must be an absolute http(s) URL' });

/** A webhook's delivery log, as a batch and a generation show it. */
export const WebhookDeliverySchema = z.object({
  id: z.string().openapi({ description: 'The webhook-id header, the same on every attempt' }),
  event: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'stopped']),
  attempt_count: z.number().int(),
  next_attempt_at: z.string().nullable(),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      at: z.string(),
      status_code: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int(),
    }),
  ),
});

export const GenerationOptionsSchema = z.object({
  width: z
    .number()
    .int()
    .min(1)
    .max(MAX_SIDE)
    .optional()
    .openapi({ description: "Pixels; each model's own range applies (`min_size`, `max_width` in GET /api/models)", example: 512 }),
  height: z
    .number()
    .int()
    .min(1)
    .max(MAX_SIDE)
    .optional()
    .openapi({ description: "Pixels; each model's own range applies (`min_size`, `max_height`)", example: 512 }),
  seed: z.number().int().min(0).max(4_294_967_295).optional().openapi({ description: 'Same prompt and seed give the same image on deterministic models' }),
  negative_prompt: z.string().max(2000).optional(),
  steps: z.number().int().min(1).max(100).optional(),
  guidance: z.number().min(0).max(30).optional(),
  strength: z
    .number({ error: 'strength must be a number from 0 to 1' })
    .min(0, 'strength must be a number from 0 to 1')
    .max(1, 'strength must be a number from 0 to 1')
    .optional()
    .openapi({
      description:
        'Image-to-image: how far the result may move from the first input image, 0 (keep it) to 1 (ignore it); for models whose inputs.strength is true',
    }),
  quality: z.enum(['low', 'medium', 'high', 'auto'], { error: 'quality must be low, medium, high or auto' }).optional().openapi({
    description:
      "For models that list quality levels (outputs.quality in GET /api/models); priced per quality where the provider does. auto: the model's default",
  }),
  background: z
    .enum(['transparent', 'opaque', 'auto'], { error: 'background must be transparent, opaque or auto' })
    .optional()
    .openapi({ description: 'transparent needs a model with outputs.transparent_background and png or webp; opaque flattens any transparency onto white' }),
  output_format: z
    .enum(['png', 'jpeg', 'webp'], { error: 'output_format must be png, jpeg or webp' })
    .optional()
    .openapi({ description: "The stored file's format (default png); r2_key ends in .png, .jpg or .webp" }),
  output_compression: z
    .number({ error: 'output_compression must be a whole number from 0 to 100' })
    .int('output_compression must be a whole number from 0 to 100')
    .min(0, 'output_compression must be a whole number from 0 to 100')
    .max(100, 'output_compression must be a whole number from 0 to 100')
    .optional()
    .openapi({ description: 'jpeg and webp quality, 0 to 100 (100 keeps the most detail)' }),
  input_fidelity: z
    .enum(['low', 'high'], { error: 'input_fidelity must be low or high' })
    .optional()
    .openapi({ description: "OpenAI gpt-image edits: how closely the result keeps the input's faces and details" }),
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
    kind: z.enum(['generated', 'upload']).openapi({ description: 'generated by a model, or an upload (POST /api/uploads; cost 0, model "upload")' }),
    upload_role: z.enum(['file', 'input', 'mask']).nullable().openapi({
      description:
        'Why an upload was stored: file (uploaded on purpose), input (an image an edit or variation sent with its request) or mask (sent with an edit, or painted in the web app); null for generated images. Inputs and masks are listed only with kind=upload',
    }),
    source_image_ids: z.array(z.string()).openapi({ description: 'Lineage: the images this one was made from, in the order given (empty for text-to-image)' }),
    thumbnails: z
      .object({
        small: z.string().openapi({
          description: 'WebP, 256 px on the long side (smaller images keep their size)',
          example: 'http://localhost:8787/files/thumbnails/img_01jc4x1q7z3m9r4f2k8t6v5w0y-256.webp',
        }),
        medium: z.string().openapi({
          description: 'WebP, 768 px on the long side (smaller images keep their size)',
          example: 'http://localhost:8787/files/thumbnails/img_01jc4x1q7z3m9r4f2k8t6v5w0y-768.webp',
        }),
      })
      .nullable()
      .openapi('ImageThumbnails', {
        description: 'Previews for galleries (e.g. an img srcset of 256w, 768w and r2_url); null for images stored before thumbnails existed',
      }),
  })
  .openapi('Image');

/** One image with its children: what was made from it. */
export const ImageDetailSchema = ImageSchema.extend({
  derived_image_ids: z
    .array(z.string())
    .openapi({ description: 'Images made from this one (newest first, at most 100); GET /api/images?derived_from=<id> pages through all' }),
}).openapi('ImageDetail');

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
