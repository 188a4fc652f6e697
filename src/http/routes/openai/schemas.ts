import { z } from '@hono/zod-openapi';

/** At most this many images per request, as OpenAI allows. */
export const MAX_IMAGES_PER_REQUEST = 10;

const SIZE = /^(auto|[1-9]\d{0,4}x[1-9]\d{0,4})$/;

/**
 * OpenAI's request for `POST /v1/images/generations`. Fields OpenAI defines that imagegate has no use for
 * (`background`, `moderation`, `style`, `output_compression`, ...) are accepted and ignored, so existing
 * client code runs unchanged; `null` counts as not given, as OpenAI's SDKs may send it.
 */
export const OpenAiGenerateSchema = z
  .object({
    prompt: z.string({ error: 'prompt is required: the text to draw, 3 to 4,000 characters' }).openapi({ example: 'a lighthouse on a cliff at sunset' }),
    model: z.string().max(200, 'model must be at most 200 characters').nullish().openapi({ description: 'A model id from GET /v1/models; defaults to the service default (DEFAULT_MODEL)', example: 'local/procedural' }),
    n: z.number().int().min(1, 'n must be from 1 to 10').max(MAX_IMAGES_PER_REQUEST, 'n must be from 1 to 10').nullish().openapi({ description: 'Images to make, 1 to 10 (default 1); each is a normal imagegate image. With response_format b64_json, n × width × height is at most 16,777,216 pixels' }),
    size: z.string().regex(SIZE, 'size must be WIDTHxHEIGHT (e.g. 1024x1024) or auto').nullish().openapi({ description: "WIDTHxHEIGHT or auto (the model's default size)", example: '512x512' }),
    quality: z.enum(['auto', 'low', 'medium', 'high', 'standard', 'hd']).nullish().openapi({ description: 'Accepted for compatibility; the model id decides the quality' }),
    response_format: z.enum(['url', 'b64_json'], { error: 'response_format must be url or b64_json' }).nullish().openapi({ description: 'url (default): the public URL of the stored PNG; b64_json: the PNG itself, base64' }),
    output_format: z.enum(['png'], { error: 'output_format must be png: imagegate stores every image as PNG' }).nullish(),
    user: z.string().max(200, 'user must be at most 200 characters').nullish().openapi({ description: "Your end user's id; kept in the image's metadata as openai_user" }),
  })
  .openapi('OpenAiImageRequest');

export const OpenAiImagesResponseSchema = z
  .object({
    created: z.number().int().openapi({ description: 'Unix seconds' }),
    data: z.array(z.object({ url: z.string().optional(), b64_json: z.string().optional(), revised_prompt: z.string().optional() })),
  })
  .openapi('OpenAiImagesResponse');

export const OpenAiModelSchema = z
  .object({ id: z.string().openapi({ example: 'local/procedural' }), object: z.literal('model'), created: z.number().int(), owned_by: z.string() })
  .openapi('OpenAiModel');

export const OpenAiModelListSchema = z.object({ object: z.literal('list'), data: z.array(OpenAiModelSchema) }).openapi('OpenAiModelList');

export const OpenAiErrorSchema = z
  .object({ error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }) })
  .openapi('OpenAiError');

const errorContent = (description: string) => ({ content: { 'application/json': { schema: OpenAiErrorSchema } }, description });

/** The error answers of every /v1 operation, in OpenAI's shape. */
export const openAiErrorResponses = {
  400: errorContent('Invalid request (invalid_request_error)'),
  401: errorContent('Missing or invalid API key'),
  403: errorContent('The key lacks the permission'),
  404: errorContent('No such model'),
  429: errorContent('Rate limit (rate_limit_exceeded) or spend limit (insufficient_quota)'),
  500: errorContent('Server error'),
} as const;
