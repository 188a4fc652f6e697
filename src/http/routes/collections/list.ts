import { createRoute } from '@hono/zod-openapi';
import { listCollections } from '../../../domain/collections/read-collections.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CollectionListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listCollections',
  method: 'get',
  path: '/api/collections',
  ...requires('read'),
  tags: ['Collections'],
  summary: 'List your collections, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(CollectionListSchema, 'A page of collections'), ...errorResponses },
});

export const registerListCollections: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await listCollections({ deps, ctx: requestContext(c), input: pageRequest(c.req.valid('query')) }), 200));
};
