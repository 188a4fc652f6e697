import { createRoute } from '@hono/zod-openapi';
import type { Deps, RequestContext } from '../../../domain/context.js';
import { ApiError, invalidParameter } from '../../../domain/errors.js';
import { generateImage } from '../../../domain/images/generate-image.js';
import type { ImageRecord } from '../../../domain/images/image-record.js';
import type { CatalogEntry } from '../../../domain/models/catalog.js';
import { requestContext } from '../../app-env.js';
import { deprecationHeaders } from '../../deprecation.js';
import { idempotent, requires } from '../../route-table.js';
import { jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { b64Answer, checkB64Pixels, streamedJson } from './b64-answer.js';
import { OpenAiGenerateSchema, OpenAiImagesResponseSchema, openAiErrorResponses } from './schemas.js';

const route = createRoute({
  operationId: 'openAiCreateImage',
  method: 'post',
  path: '/v1/images/generations',
  ...requires('generate'),
  ...idempotent(),
  tags: ['OpenAI-compatible'],
  summary: "OpenAI's image generation endpoint: each image is a normal imagegate image (stored, costed, in the gallery)",
  description: 'Point an OpenAI SDK at `<server>/v1` with an imagegate API key. `url` is the image\'s `r2_url`. Errors come in OpenAI\'s shape.',
  request: jsonBody(OpenAiGenerateSchema),
  responses: { 200: jsonContent(OpenAiImagesResponseSchema, 'The images'), ...openAiErrorResponses },
});

type OpenAiRequest = ReturnType<typeof OpenAiGenerateSchema.parse>;
type OpenAiImagesResponse = ReturnType<typeof OpenAiImagesResponseSchema.parse>;

export const registerOpenAiGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const ctx = requestContext(c.var);
    if (body.response_format === 'b64_json') checkB64Pixels(body.n ?? 1, parseSize(body.size), deps.catalog.find(body.model ?? deps.catalog.defaultModelId));
    const images = await generateAll(deps, ctx, body);
    const first = images[0];
    const headers = first === undefined ? {} : deprecationHeaders(deps.catalog.find(first.model), deps.clock.now());
    const created = Math.floor(deps.clock.now().getTime() / 1000);
    if (body.response_format !== 'b64_json') return c.json({ created, data: images.map((image) => ({ url: image.r2_url })) }, 200, headers);
    const stream = await b64Answer(deps, created, images, ctx.signal);
    return streamedJson<OpenAiImagesResponse>(c.body(stream, 200, { ...headers, 'content-type': 'application/json' }));
  });
};

/**
 * One `generateImage` per requested image, one after another, each reserving its own cost: the first refusal (a
 * bad prompt or size, a budget) comes before any provider call. A failure after that (a budget that runs out
 * part-way) answers with the images already made: they were paid for, and a client that gets nothing back would
 * ask again and pay again.
 */
async function generateAll(deps: Deps, ctx: RequestContext, body: OpenAiRequest): Promise<ImageRecord[]> {
  const model = body.model ?? undefined;
  const size = parseSize(body.size);
  const metadata = body.user === undefined || body.user === null ? undefined : { openai_user: body.user };
  const images: ImageRecord[] = [];
  const wanted = body.n ?? 1;
  for (let i = 0; i < wanted; i += 1) {
    try {
      images.push(await generateImage({ deps, ctx, input: { prompt: body.prompt, model, ...size, metadata } }));
    } catch (error) {
      if (images.length === 0) throw asSizeError(error, deps.catalog.find(model ?? deps.catalog.defaultModelId));
      deps.logger.warn({ requestId: ctx.requestId, made: images.length, wanted, err: error instanceof Error ? error.message : String(error) }, 'answering with the images made before a failure');
      break;
    }
  }
  return images;
}

function parseSize(size: string | null | undefined): { width?: number; height?: number } {
  if (size === undefined || size === null || size === 'auto') return {};
  const [width, height] = size.split('x').map(Number);
  return { width, height };
}

/** OpenAI clients send `size`, not width and height: a size the model cannot make is an error about `size`, naming the sizes it can. */
function asSizeError(error: unknown, model: CatalogEntry | undefined): unknown {
  if (!(error instanceof ApiError) || error.code !== 'INVALID_PARAMETER' || model === undefined) return error;
  const details = typeof error.details === 'object' ? error.details : {};
  if (details.field !== 'width' && details.field !== 'height') return error;
  const can =
    model.sizes !== undefined
      ? `one of ${model.sizes.join(', ')}`
      : `WIDTHxHEIGHT with width ${model.min_size} to ${model.max_width} and height ${model.min_size} to ${model.max_height} (default ${model.default_width}x${model.default_height})`;
  const reason = typeof details.message === 'string' ? ` (${details.message})` : '';
  return invalidParameter('size', `model ${model.id} cannot make this size${reason}; send size ${can}, or auto`);
}
