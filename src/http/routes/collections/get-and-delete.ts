import { createRoute } from '@hono/zod-openapi';
import { deleteCollection } from '../../../domain/collections/change-collections.js';
import { getCollection } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionIdParamSchema, CollectionSchema, DeletedCollectionSchema } from './schemas.js';

const getRoute = createRoute({
  method: 'get',
  path: '/api/collections/{id}',
  tags: ['Collections'],
  summary: 'Get a collection',
  request: { params: CollectionIdParamSchema },
  responses: { 200: jsonContent(CollectionSchema, 'The collection'), ...errorResponses },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/collections/{id}',
  tags: ['Collections'],
  summary: 'Delete a collection (its images stay in your gallery)',
  request: { params: CollectionIdParamSchema },
  responses: { 200: jsonContent(DeletedCollectionSchema, 'The collection is deleted'), ...errorResponses },
});

export const registerGetAndDeleteCollection: RegisterRoutes = (app, deps) => {
  app.openapi(getRoute, async (c) => {
    const collection = await getCollection({ deps, ctx: requestContext(c.var), input: { collectionId: c.req.valid('param').id } });
    return c.json(collection, 200);
  });
  app.openapi(deleteRoute, async (c) => {
    const result = await deleteCollection({ deps, ctx: requestContext(c.var), input: { collectionId: c.req.valid('param').id } });
    return c.json(result, 200);
  });
};
