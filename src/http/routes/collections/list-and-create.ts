import { createRoute } from '@hono/zod-openapi';
import { createCollection } from '../../../domain/collections/create-collection.js';
import { listCollections } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { PageQuerySchema, errorResponses, jsonBody, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionListSchema, CollectionSchema, CreateCollectionSchema } from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/collections',
  tags: ['Collections'],
  summary: 'List your collections, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(CollectionListSchema, 'A page of collections'), ...errorResponses },
});

const createRouteDef = createRoute({
  method: 'post',
  path: '/api/collections',
  tags: ['Collections'],
  summary: 'Create a collection',
  request: jsonBody(CreateCollectionSchema),
  responses: { 201: jsonContent(CollectionSchema, 'The new collection'), ...errorResponses },
});

export const registerListAndCreateCollections: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, async (c) => {
    const result = await listCollections({ deps, ctx: requestContext(c.var), input: pageRequest(c.req.valid('query')) });
    return c.json(result, 200);
  });
  app.openapi(createRouteDef, async (c) => {
    const collection = await createCollection({ deps, ctx: requestContext(c.var), input: c.req.valid('json') });
    return c.json(collection, 201);
  });
};
