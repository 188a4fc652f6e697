import { createRoute } from '@hono/zod-openapi';
import { deleteImage } from '../../../domain/images/delete-image.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { DeletedImageSchema, ImageIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'deleteImage',
  method: 'delete',
  path: '/api/images/{id}',
  ...requires('manage'),
  tags: ['Images'],
  summary: 'Soft-delete an image',
  description: 'The record is kept and still counts in cost analytics; list and get stop showing it.',
  request: { params: ImageIdParamSchema },
  responses: { 200: jsonContent(DeletedImageSchema, 'The image is deleted'), ...errorResponses },
});

export const registerDeleteImage: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const result = await deleteImage({ deps, ctx: requestContext(c), input: { imageId: c.req.valid('param').id } });
    return c.json(result, 200);
  });
};
