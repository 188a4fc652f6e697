import { createRoute } from '@hono/zod-openapi';
import { removeImageFromCollection } from '../../../domain/collections/change-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { MembershipParamSchema, RemovedMembershipSchema } from './schemas.js';

const route = createRoute({
  operationId: 'removeImageFromCollection',
  method: 'delete',
  path: '/api/collections/{id}/images/{image_id}',
  ...requires('manage'),
  tags: ['Collections'],
  summary: 'Remove an image from a collection (the image itself stays)',
  request: { params: MembershipParamSchema },
  responses: { 200: jsonContent(RemovedMembershipSchema, 'Removed'), ...errorResponses },
});

export const registerRemoveImageFromCollection: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const params = c.req.valid('param');
    const input = { collectionId: params.id, imageId: params.image_id };
    return c.json(await removeImageFromCollection({ deps, ctx: requestContext(c), input }), 200);
  });
};
