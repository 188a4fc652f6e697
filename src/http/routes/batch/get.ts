import { createRoute } from '@hono/zod-openapi';
import { getBatch } from '../../../domain/batches/read-batches.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BatchDetailSchema, BatchIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getBatch',
  method: 'get',
  path: '/api/batch/{id}',
  ...requires('read', 'generate'),
  tags: ['Batches'],
  summary: 'A batch with its images so far, per-prompt errors and webhook delivery state',
  request: { params: BatchIdParamSchema },
  responses: { 200: jsonContent(BatchDetailSchema, 'The batch'), ...errorResponses },
});

export const registerGetBatch: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getBatch({ deps, ctx: requestContext(c), input: { batchId: c.req.valid('param').id } }), 200));
};
