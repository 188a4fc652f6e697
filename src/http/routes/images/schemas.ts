import { z } from '@hono/zod-openapi';
import { RangeQuerySchema } from '../analytics/schemas.js';
import { MAX_INPUT_IMAGES } from '../../../domain/inputs/input-limits.js';
import { GenerationOptionsSchema, ImageSchema, PageQuerySchema, PaginationSchema, WebhookUrlSchema } from '../../schemas.js';
import { MAX_DEADLINE_SECONDS } from '../../../domain/generations/accept-generation.js';
import { MAX_PARTIAL_IMAGES } from '../../../domain/images/output-settings.js';
import { GENERATION_WEBHOOK_EVENTS } from '../../../ports/db/generations.js';

const PARTIAL_RULE = `partial_images must be a whole number from 0 to ${MAX_PARTIAL_IMAGES}`;
const DEADLINE_RULE = `deadline_seconds must be a whole number from 1 to ${MAX_DEADLINE_SECONDS}`;

/** The input image fields of a generation, shared with batches (where every prompt gets the same inputs). */
export const ImageInputFields = {
  image_ids: z
    .array(z.string({ error: 'image_ids must be a list of image ids' }).max(200, 'each of image_ids must be an image id from the gallery'), {
      error: 'image_ids must be a list of image ids',
    })
    .max(MAX_INPUT_IMAGES, `image_ids may name at most ${MAX_INPUT_IMAGES} images`)
    .optional()
    .openapi({
      description: "Gallery images to give the model (uploads or earlier generations); the first is the one edited. Up to the model's inputs.max_images",
    }),
  mask_image_id: z
    .string({ error: 'mask_image_id must be an image id from the gallery' })
    .max(200, 'mask_image_id must be an image id from the gallery')
    .optional()
    .openapi({
      description:
        'A PNG or WebP the size of the first image whose fully transparent pixels mark the area to change (OpenAI semantics); for models whose inputs.mask is true',
    }),
};

export const GenerateBodySchema = z
  .strictObject({
    prompt: z.string().optional().openapi({
      description: 'At least 3 and at most 4,000 characters after trimming; optional with template_id',
      example: 'a lighthouse on a cliff at sunset',
    }),
    model: z.string().optional().openapi({ description: 'Model id from GET /api/models; optional with template_id', example: 'local/procedural' }),
    template_id: z.string().optional().openapi({ description: "Use a template's model, prompt and parameters; fields in the request win" }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Custom data attached to the image' }),
    webhook_url: WebhookUrlSchema.optional().openapi({
      description:
        'Receives the events named in webhook_events, each signed (Standard Webhooks) and retried as batch webhooks are; the delivery log is in GET /api/generations/{id}',
      example: 'https://example.com/hooks/imagegate',
    }),
    webhook_events: z
      .array(z.enum(GENERATION_WEBHOOK_EVENTS, { error: `webhook_events holds only ${GENERATION_WEBHOOK_EVENTS.join(', ')}` }))
      .min(1, 'webhook_events must name at least one event')
      .optional()
      .openapi({
        description: 'Which events go to webhook_url, one delivery each; default generation.completed and generation.failed',
        example: ['generation.completed', 'generation.failed'],
      }),
    deadline_seconds: z.number({ error: DEADLINE_RULE }).int(DEADLINE_RULE).min(1, DEADLINE_RULE).max(MAX_DEADLINE_SECONDS, DEADLINE_RULE).optional().openapi({
      description:
        'Still queued this many seconds after it was accepted, the generation is cancelled (status cancelled, code GENERATION_CANCELLED) without calling the provider or charging anything. A generation already running is not stopped by its deadline: its provider may already bill it.',
      example: 300,
    }),
    partial_images: z.number({ error: PARTIAL_RULE }).int(PARTIAL_RULE).min(0, PARTIAL_RULE).max(MAX_PARTIAL_IMAGES, PARTIAL_RULE).optional().openapi({
      description:
        "Partial images while the model draws, sent as the generation's generation.partial_image events (GET /api/generations/{id}/events) and never stored; for models whose outputs.partial_images is true (OpenAI's GPT image models, which bill output tokens for each; the recorded cost is what OpenAI reports); other models draw none",
      example: 2,
    }),
    ...ImageInputFields,
    ...GenerationOptionsSchema.shape,
  })
  .openapi('GenerateRequest');

export const ImageIdParamSchema = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'img_01jc4x1q7z3m9r4f2k8t6v5w0y' }),
});

/** Longest search text: far beyond any real query, short enough that a scan stays cheap. */
export const MAX_SEARCH_LENGTH = 200;

export const ImageListQuerySchema = PageQuerySchema.extend({
  q: z
    .string({ error: 'q must be given once, as text' })
    .max(MAX_SEARCH_LENGTH, `q must be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .openapi({
      param: { description: 'Only images whose prompt contains this text, ignoring case (matched literally; % and _ are not wildcards)' },
      example: 'lighthouse',
    }),
  model: z
    .string({ error: 'model must be given once, as a model id' })
    .max(200, 'model must be at most 200 characters')
    .optional()
    .openapi({ param: { description: 'Only images made by this model id' }, example: 'local/procedural' }),
  kind: z
    .enum(['generated', 'upload'], { error: 'kind must be given once, as generated or upload' })
    .optional()
    .openapi({
      param: {
        description:
          'Only generated images, or only uploads (all of them: files uploaded on purpose, and the inputs and masks edits stored). Without kind: generated images and files uploaded on purpose; inputs and masks (upload_role input or mask) are left out',
      },
      example: 'upload',
    }),
  derived_from: z
    .string({ error: 'derived_from must be given once, as an image id' })
    .max(200, 'derived_from must be an image id')
    .optional()
    .openapi({ param: { description: "Only images made from this image (its children): walk lineage down; each record's source_image_ids walks it up" } }),
  cursor: z
    .string({ error: 'cursor must be given once' })
    .max(512, 'cursor must be a pagination.next_cursor from an earlier page, passed back unchanged')
    .optional()
    .openapi({ param: { description: 'pagination.next_cursor of the previous page: keyset paging, as fast on page 10,000 as on page 1 (instead of offset)' } }),
  from: RangeQuerySchema.shape.from.openapi({ param: { description: 'Only images created at or after this: a date (2026-11-01) or a UTC timestamp' } }),
  to: RangeQuerySchema.shape.to.openapi({
    param: { description: 'Only images created before this: a date includes that whole day; a timestamp is exclusive' },
  }),
});

export const ImageListSchema = z
  .object({
    images: z.array(ImageSchema),
    pagination: PaginationSchema.extend({
      next_cursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
    }).openapi('ImagePagination'),
  })
  .openapi('ImageList');

export const DeletedImageSchema = z
  .object({
    id: z.string(),
    deleted: z.literal(true),
    is_deleted: z.literal(true).openapi({ description: 'The record is kept, marked deleted: it still counts in cost analytics' }),
    deleted_at: z.string(),
    files_removed: z.boolean().openapi({
      description:
        'The original and its thumbnails are removed from storage, so their URLs no longer answer. False when storage failed just then: the periodic storage sweep removes them',
    }),
    message: z.string().openapi({ description: 'What happened, in words' }),
  })
  .openapi('DeletedImage');
