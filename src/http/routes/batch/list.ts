import { createRoute } from '@hono/zod-openapi';
import { listBatches } from '../../../domain/batches/read-batches.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BatchListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listBatches',
  method: 'get',
  path: '/api/batch',
  ...requires('read', 'generate'),
  tags: ['Batches'],
  summary: 'List your batches, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(BatchListSchema, 'A page of batches'), ...errorResponses },
});

export const registerListBatches: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await listBatches({ deps, ctx: requestContext(c), input: pageRequest(c.req.valid('query')) }), 200));
};
