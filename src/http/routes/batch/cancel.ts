import { createRoute } from '@hono/zod-openapi';
import { cancelBatch } from '../../../domain/batches/change-batches.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { ErrorSchema, errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BatchIdParamSchema, BatchSchema } from './schemas.js';

const route = createRoute({
  operationId: 'cancelBatch',
  method: 'post',
  path: '/api/batch/{id}/cancel',
  ...requires('generate'),
  tags: ['Batches'],
  summary: 'Cancel a batch: pending prompts are dropped, finished images stay',
  description: 'Takes no input: send no body (any Content-Type), or a JSON `{}`.',
  request: { params: BatchIdParamSchema },
  responses: { 200: jsonContent(BatchSchema, 'The cancelled batch'), ...errorResponses, 409: jsonContent(ErrorSchema, 'The batch already finished') },
});

export const registerCancelBatch: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await cancelBatch({ deps, ctx: requestContext(c), input: { batchId: c.req.valid('param').id } }), 200));
};
