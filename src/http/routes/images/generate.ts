import { createRoute } from '@hono/zod-openapi';
import { generateImage } from '../../../domain/images/generate-image.js';
import { requestContext } from '../../app-env.js';
import { deprecationHeaders } from '../../deprecation.js';
import { idempotent, requires } from '../../route-table.js';
import { ErrorSchema, ImageSchema, errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerateBodySchema } from './schemas.js';

const route = createRoute({
  operationId: 'generateImage',
  method: 'post',
  path: '/api/generate',
  ...requires('generate'),
  ...idempotent(),
  tags: ['Images'],
  summary: 'Generate an image from a prompt',
  description:
    'Runs the prompt on the chosen model, stores the PNG and records it. Every call creates a new image, unless it carries an `Idempotency-Key` already used in the last 24 hours: then the first answer is replayed with `Idempotent-Replayed: true`. A deprecated model answers with `Deprecation`, `Sunset` and a `Link` to its replacement.',
  request: jsonBody(GenerateBodySchema),
  responses: {
    201: jsonContent(ImageSchema, 'The generated image'),
    ...errorResponses,
    413: jsonContent(ErrorSchema, 'Body larger than 1 MiB'),
    502: jsonContent(ErrorSchema, "The model's provider cannot be used (out of credit, wrong credentials): the operator must act"),
    503: jsonContent(ErrorSchema, 'The provider is down or failing repeatedly; retry after Retry-After seconds'),
  },
});

export const registerGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const image = await generateImage({
      deps,
      // A client that hangs up stops its render instead of leaving a worker thread busy for nobody.
      ctx: { ...requestContext(c), signal: c.req.raw.signal },
      input: c.req.valid('json'),
    });
    return c.json(image, 201, deprecationHeaders(deps.catalog.find(image.model), deps.clock.now()));
  });
};
