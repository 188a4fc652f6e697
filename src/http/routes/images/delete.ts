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
  description:
    'The record is kept (`is_deleted: true`) and still counts in cost analytics; list and get stop showing it, and it can no longer be an input image. Its file and thumbnails are removed from storage at once, so its URLs stop answering; if storage fails just then the delete still succeeds (`files_removed: false`) and the periodic storage sweep removes them.',
  request: { params: ImageIdParamSchema },
  responses: { 200: jsonContent(DeletedImageSchema, 'The image is deleted'), ...errorResponses },
});

export const registerDeleteImage: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const result = await deleteImage({ deps, ctx: requestContext(c), input: { imageId: c.req.valid('param').id } });
    return c.json(result, 200);
  });
};
