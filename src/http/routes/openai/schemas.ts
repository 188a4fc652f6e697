import { z } from '@hono/zod-openapi';

/** At most this many images per request, as OpenAI allows. */
export const MAX_IMAGES_PER_REQUEST = 10;

const SIZE = /^(auto|[1-9]\d{0,4}x[1-9]\d{0,4})$/;

/**
 * The fields OpenAI's image endpoints share, as JSON or multipart text takes them. Each is honoured or refused
 * with a 400 naming it: nothing OpenAI defines is taken and then ignored.
 */
export const openAiFields = {
  model: z
    .string()
    .max(200, 'model must be at most 200 characters')
    .openapi({ description: 'A model id from GET /v1/models; defaults to the service default (DEFAULT_MODEL)', example: 'local/procedural' }),
  size: z.string().regex(SIZE, 'size must be WIDTHxHEIGHT (e.g. 1024x1024) or auto').openapi({
    description: "WIDTHxHEIGHT, or auto (the model's default size; for an edit, the input's size where the model can make it)",
    example: '512x512',
  }),
  quality: z.enum(['auto', 'low', 'medium', 'high', 'standard', 'hd'], { error: 'quality must be auto, low, medium, high, standard or hd' }).openapi({
    description:
      "low, medium or high for models that list them (outputs.quality in GET /api/models), else refused; auto is the model's default. " +
      "DALL-E's names are mapped for DALL-E-era clients: standard is the model's default, hd its high where it has one (else its default, with a Warning header)",
  }),
  background: z.enum(['transparent', 'opaque', 'auto'], { error: 'background must be transparent, opaque or auto' }).openapi({
    description: 'transparent only for models with outputs.transparent_background, with png or webp; opaque flattens any transparency onto white',
  }),
  output_format: z
    .enum(['png', 'jpeg', 'webp'], { error: 'output_format must be png, jpeg or webp' })
    .openapi({ description: "The stored file's format (default png), also the format of b64_json" }),
  response_format: z.enum(['url', 'b64_json'], { error: 'response_format must be url or b64_json' }).openapi({
    description:
      "b64_json (default, as OpenAI's GPT image models always answer): the image itself, base64; url: the public URL of the stored image (no pixel cap)",
  }),
  user: z.string().max(200, 'user must be at most 200 characters').openapi({ description: "Your end user's id; kept in the image's metadata as openai_user" }),
  moderation: z.enum(['auto', 'low'], { error: 'moderation must be auto or low' }).openapi({
    description:
      "Passed to the providers that take it (OpenAI's GPT image generations: low filters less); every other provider, and OpenAI's edits, moderate at their own standard level. imagegate adds no filter of its own; a refusal is a 400 content_policy_violation",
  }),
  style: z.enum(['vivid', 'natural'], { error: 'style must be vivid or natural' }).openapi({
    description: "dall-e-3's, accepted for DALL-E-era clients and left aside (no model here has styles), with a Warning header: say the style in the prompt",
  }),
};

const STREAM_DESCRIPTION =
  "true: the answer is text/event-stream in OpenAI's format, each image an `image_generation.completed` (or `image_edit.completed`) event with `usage`";
const PARTIAL_DESCRIPTION =
  "With stream only, 0 to 3: partial images where the model draws them (OpenAI's GPT image models; fewer or none elsewhere, which OpenAI's contract allows)";

/**
 * OpenAI's request for `POST /v1/images/generations`. `null` counts as not given, as OpenAI's SDKs may send it.
 * Fields OpenAI does not define are ignored, as they always were here, so a client's extra fields do no harm.
 */
export const OpenAiGenerateSchema = z
  .object({
    prompt: z.string({ error: 'prompt is required: the text to draw, 3 to 4,000 characters' }).openapi({ example: 'a lighthouse on a cliff at sunset' }),
    model: openAiFields.model.nullish(),
    n: z.number().int().min(1, 'n must be from 1 to 10').max(MAX_IMAGES_PER_REQUEST, 'n must be from 1 to 10').nullish().openapi({
      description:
        'Images to make, 1 to 10 (default 1); each is a normal imagegate image. With response_format b64_json, n × width × height is at most 16,777,216 pixels',
    }),
    size: openAiFields.size.nullish(),
    quality: openAiFields.quality.nullish(),
    background: openAiFields.background.nullish(),
    output_format: openAiFields.output_format.nullish(),
    output_compression: z
      .number({ error: 'output_compression must be a whole number from 0 to 100' })
      .int('output_compression must be a whole number from 0 to 100')
      .min(0, 'output_compression must be a whole number from 0 to 100')
      .max(100, 'output_compression must be a whole number from 0 to 100')
      .nullish()
      .openapi({ description: 'jpeg and webp quality, 0 to 100; refused with png' }),
    moderation: openAiFields.moderation.nullish(),
    style: openAiFields.style.nullish(),
    stream: z.boolean({ error: 'stream must be true or false' }).nullish().openapi({ description: STREAM_DESCRIPTION }),
    partial_images: z
      .number({ error: 'partial_images must be a whole number from 0 to 3' })
      .int('partial_images must be a whole number from 0 to 3')
      .min(0)
      .max(3)
      .nullish()
      .openapi({ description: PARTIAL_DESCRIPTION }),
    response_format: openAiFields.response_format.nullish(),
    user: openAiFields.user.nullish(),
  })
  .openapi('OpenAiImageRequest');

const tokenDetails = z.object({ image_tokens: z.number().int(), text_tokens: z.number().int() });

/**
 * OpenAI's ImagesResponse (openai/openai-node src/resources/images.ts, openai 7.57; OpenAI's own OpenAPI document
 * names the same fields), with every field OpenAI gives for its GPT image models on every answer. `auto` for
 * `quality` and `background` is imagegate's addition: the model decided, and what it chose is not known here.
 */
export const OpenAiImagesResponseSchema = z
  .object({
    created: z.number().int().openapi({ description: 'Unix seconds' }),
    data: z.array(z.object({ url: z.string().optional(), b64_json: z.string().optional(), revised_prompt: z.string().optional() })),
    background: z
      .enum(['transparent', 'opaque', 'auto'])
      .optional()
      .openapi({ description: 'transparent or opaque as asked; opaque for models that cannot draw transparency; else auto (the model chose)' }),
    output_format: z.enum(['png', 'jpeg', 'webp']).optional().openapi({ description: 'The format of the images' }),
    quality: z
      .enum(['low', 'medium', 'high', 'auto'])
      .optional()
      .openapi({ description: "The level asked for, or the level OpenAI's models are called at by default (medium); auto for models with one fixed quality" }),
    size: z.string().optional().openapi({ description: 'WIDTHxHEIGHT of the images', example: '512x512' }),
    usage: z
      .object({
        input_tokens: z.number().int(),
        input_tokens_details: tokenDetails,
        output_tokens: z.number().int(),
        output_tokens_details: tokenDetails,
        total_tokens: z.number().int(),
      })
      .openapi('OpenAiImagesUsage', {
        description:
          "Tokens, for token-billed models (OpenAI's GPT image models) an estimate by OpenAI's published formulas (the recorded cost uses what OpenAI reported); zeros for every other model, which counts no tokens",
      }),
  })
  .openapi('OpenAiImagesResponse');

export const OpenAiModelSchema = z
  .object({ id: z.string().openapi({ example: 'local/procedural' }), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })
  .openapi('OpenAiModel');

export const OpenAiModelListSchema = z.object({ object: z.literal('list'), data: z.array(OpenAiModelSchema) }).openapi('OpenAiModelList');

export const OpenAiErrorSchema = z
  .object({ error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }) })
  .openapi('OpenAiError');

export const errorContent = (description: string) => ({ content: { 'application/json': { schema: OpenAiErrorSchema } }, description });

/** The error answers of every /v1 operation, in OpenAI's shape. */
export const openAiErrorResponses = {
  400: errorContent('Invalid request (invalid_request_error)'),
  401: errorContent('Missing or invalid API key'),
  403: errorContent('The key lacks the permission'),
  404: errorContent('No such model'),
  429: errorContent('Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota)'),
  500: errorContent('Server error'),
} as const;

/** What making an image can answer beyond that: the provider's failures (see docs/errors.md). */
export const openAiImageErrorResponses = {
  ...openAiErrorResponses,
  502: errorContent("The model's provider cannot be used, or its answer was lost after the request was sent (server_error)"),
  503: errorContent('The provider, or a service imagegate needs, is unavailable; retry after Retry-After (server_error)'),
  504: errorContent('The provider did not answer in time (server_error)'),
} as const;
