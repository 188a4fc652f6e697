import { createRoute } from '@hono/zod-openapi';
import { getImage } from '../../../domain/images/get-image.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { ImageDetailSchema, errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { ImageIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getImage',
  method: 'get',
  path: '/api/images/{id}',
  ...requires('read'),
  tags: ['Images'],
  summary: 'Get one image, with the images made from it (derived_image_ids)',
  request: { params: ImageIdParamSchema },
  responses: { 200: jsonContent(ImageDetailSchema, 'The image'), ...errorResponses },
});

export const registerGetImage: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const image = await getImage({ deps, ctx: requestContext(c), input: { imageId: c.req.valid('param').id } });
    return c.json(image, 200);
  });
};
