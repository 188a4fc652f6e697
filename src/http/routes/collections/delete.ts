import { createRoute } from '@hono/zod-openapi';
import { deleteCollection } from '../../../domain/collections/change-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionIdParamSchema, DeletedCollectionSchema } from './schemas.js';

const route = createRoute({
  operationId: 'deleteCollection',
  method: 'delete',
  path: '/api/collections/{id}',
  ...requires('manage'),
  tags: ['Collections'],
  summary: 'Delete a collection (its images stay in your gallery)',
  request: { params: CollectionIdParamSchema },
  responses: { 200: jsonContent(DeletedCollectionSchema, 'The collection is deleted'), ...errorResponses },
});

export const registerDeleteCollection: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await deleteCollection({ deps, ctx: requestContext(c), input: { collectionId: c.req.valid('param').id } }), 200));
};
