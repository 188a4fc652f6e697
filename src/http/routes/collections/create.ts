import { createRoute } from '@hono/zod-openapi';
import { createCollection } from '../../../domain/collections/create-collection.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionSchema, CreateCollectionSchema } from './schemas.js';

const route = createRoute({
  operationId: 'createCollection',
  method: 'post',
  path: '/api/collections',
  ...requires('manage'),
  tags: ['Collections'],
  summary: 'Create a collection',
  request: jsonBody(CreateCollectionSchema),
  responses: { 201: jsonContent(CollectionSchema, 'The new collection'), ...errorResponses },
});

export const registerCreateCollection: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await createCollection({ deps, ctx: requestContext(c), input: c.req.valid('json') }), 201));
};
