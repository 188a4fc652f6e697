import { createRoute, z } from '@hono/zod-openapi';
import { requestContext } from '../../app-env.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { catalogModelId } from './model-names.js';
import { checkB64Pixels } from './b64-answer.js';
import { generateAll, parseSize, userMetadata } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { imagesEventStream } from './images-event-stream.js';
import { checkPartialImages, openAiOptions } from './openai-options.js';
import { OpenAiGenerateSchema, OpenAiImagesResponseSchema, openAiImageErrorResponses } from './schemas.js';

const route = createRoute({
  operationId: 'openAiCreateImage',
  method: 'post',
  path: '/v1/images/generations',
  ...requires('generate'),
  ...idempotent(),
  tags: ['OpenAI-compatible'],
  summary: "OpenAI's image generation endpoint: each image is a normal imagegate image (stored, costed, in the gallery)",
  description:
    'Point an OpenAI SDK at `<server>/v1` with an imagegate API key. The answer holds the images as `b64_json` unless `response_format: url` ' +
    "asks for each image's `r2_url`. Errors come in OpenAI's shape. Every field OpenAI defines is honoured or refused with a 400 naming it: `quality`, " +
    '`background`, `output_format` and `output_compression` as the model can (GET /api/models), `moderation` where the provider takes it. `stream: true` ' +
    "answers text/event-stream in OpenAI's format: `image_generation.partial_image` events as OpenAI's GPT image models draw them (with `partial_images`), then an `image_generation.completed` event per image, with `usage`. DALL-E's `style` and `quality: hd` are mapped or left aside with a `Warning` header.",
  request: jsonBody(OpenAiGenerateSchema),
  responses: {
    200: {
      content: { ...jsonContent(OpenAiImagesResponseSchema, 'The images').content, 'text/event-stream': { schema: z.string() } },
      description: 'The images (or, with stream: true, their events)',
    },
    ...openAiImageErrorResponses,
  },
});

export const registerOpenAiGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const ctx = requestContext(c);
    const stream = body.stream === true;
    checkPartialImages(stream, body.partial_images);
    const size = parseSize(body.size);
    const n = body.n ?? 1;
    const model = catalogModelId(deps.catalog, body.model, deps.clock.now());
    const entry = deps.catalog.find(model ?? deps.catalog.defaultModelId);
    if (body.response_format !== 'url' || stream) checkB64Pixels(n, size, entry);
    const { options, warnings } = openAiOptions(body, entry);
    const input = { prompt: body.prompt, model, ...size, ...options, ...userMetadata(body.user) };
    if (stream) {
      const streamSize = `${size.width ?? entry?.default_width ?? 0}x${size.height ?? entry?.default_height ?? 0}`;
      return imagesEventStream(c, deps, ctx, { kind: 'image_generation', n, input, model: entry, size: streamSize, warnings });
    }
    const images = await generateAll(deps, ctx, n, input);
    return imagesAnswer(c, deps, images, { responseFormat: body.response_format, warnings, signal: ctx.signal });
  });
};
