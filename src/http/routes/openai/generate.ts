import { createRoute } from '@hono/zod-openapi';
import { encodeBase64 } from 'hono/utils/encode';
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

export const registerOpenAiGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const images = await generateAll(deps, requestContext(c.var), body);
    const data = await Promise.all(images.map(async (image) => (body.response_format === 'b64_json' ? { b64_json: await pngBase64(deps, image) } : { url: image.r2_url })));
    const first = images[0];
    const headers = first === undefined ? {} : deprecationHeaders(deps.catalog.find(first.model), deps.clock.now());
    return c.json({ created: Math.floor(deps.clock.now().getTime() / 1000), data }, 200, headers);
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

async function pngBase64(deps: Deps, image: ImageRecord): Promise<string> {
  const blob = await deps.blobs.get(image.r2_key);
  if (blob === undefined) throw new Error(`image ${image.id} was recorded but its object ${image.r2_key} is missing`);
  return encodeBase64(blob.bytes.buffer.slice(blob.bytes.byteOffset, blob.bytes.byteOffset + blob.bytes.byteLength));
}
