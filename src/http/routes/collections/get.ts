import { createRoute } from '@hono/zod-openapi';
import { getCollection } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionIdParamSchema, CollectionSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getCollection',
  method: 'get',
  path: '/api/collections/{id}',
  ...requires('read'),
  tags: ['Collections'],
  summary: 'Get a collection',
  request: { params: CollectionIdParamSchema },
  responses: { 200: jsonContent(CollectionSchema, 'The collection'), ...errorResponses },
});

export const registerGetCollection: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getCollection({ deps, ctx: requestContext(c), input: { collectionId: c.req.valid('param').id } }), 200));
};
