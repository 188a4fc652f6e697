import { createRoute } from '@hono/zod-openapi';
import { requestContext } from '../../app-env.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { catalogModelId } from './model-names.js';
import { checkB64Pixels } from './b64-answer.js';
import { generateAll, parseSize, userMetadata } from './generate-all.js';
import { imagesAnswer } from './images-answer.js';
import { outputOptions, refuseGenerationExtras, refuseStreaming } from './openai-options.js';
import { OpenAiGenerateSchema, OpenAiImagesResponseSchema, openAiErrorResponses } from './schemas.js';

const route = createRoute({
  operationId: 'openAiCreateImage',
  method: 'post',
  path: '/v1/images/generations',
  ...requires('generate'),
  ...idempotent(),
  tags: ['OpenAI-compatible'],
  summary: "OpenAI's image generation endpoint: each image is a normal imagegate image (stored, costed, in the gallery)",
  description:
    "Point an OpenAI SDK at `<server>/v1` with an imagegate API key. `url` is the image's `r2_url`. Errors come in OpenAI's shape. " +
    'Every field OpenAI defines is honoured or refused with a 400 naming it: `quality`, `background`, `output_format` and `output_compression` ' +
    "as the model can (GET /api/models); `style`, `moderation: low`, `stream: true` and `partial_images` are refused, before anything is made.",
  request: jsonBody(OpenAiGenerateSchema),
  responses: { 200: jsonContent(OpenAiImagesResponseSchema, 'The images'), ...openAiErrorResponses },
});

export const registerOpenAiGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const ctx = requestContext(c);
    refuseStreaming(body.stream, body.partial_images);
    refuseGenerationExtras(body.style, body.moderation);
    const size = parseSize(body.size);
    const n = body.n ?? 1;
    const model = catalogModelId(deps.catalog, body.model, deps.clock.now());
    if (body.response_format === 'b64_json') checkB64Pixels(n, size, deps.catalog.find(model ?? deps.catalog.defaultModelId));
    const images = await generateAll(deps, ctx, n, { prompt: body.prompt, model, ...size, ...outputOptions(body), ...userMetadata(body.user) });
    return imagesAnswer(c, deps, images, body.response_format, ctx.signal);
  });
};
