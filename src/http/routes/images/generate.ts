import { createRoute } from '@hono/zod-openapi';
import { generateImage } from '../../../domain/images/generate-image.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { ErrorSchema, ImageSchema, errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerateBodySchema } from './schemas.js';

const route = createRoute({
  operationId: 'generateImage',
  method: 'post',
  path: '/api/generate',
  ...requires('generate'),
  tags: ['Images'],
  summary: 'Generate an image from a prompt',
  description: 'Runs the prompt on the chosen model, stores the PNG and records it. Not idempotent: every call creates a new image.',
  request: jsonBody(GenerateBodySchema),
  responses: {
    201: jsonContent(ImageSchema, 'The generated image'),
    ...errorResponses,
    413: jsonContent(ErrorSchema, 'Body larger than 1 MiB'),
  },
});

export const registerGenerate: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const image = await generateImage({ deps, ctx: requestContext(c.var), input: c.req.valid('json') });
    return c.json(image, 201);
  });
};
