import { createRoute } from '@hono/zod-openapi';
import { cancelBatch } from '../../../domain/batches/change-batches.js';
import { getBatch, listBatches } from '../../../domain/batches/read-batches.js';
import { requestContext } from '../../app-env.js';
import { ErrorSchema, PageQuerySchema, errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BatchDetailSchema, BatchIdParamSchema, BatchListSchema, BatchSchema } from './schemas.js';

const listRoute = createRoute({
  method: 'get',
  path: '/api/batch',
  tags: ['Batches'],
  summary: 'List your batches, newest first',
  request: { query: PageQuerySchema },
  responses: { 200: jsonContent(BatchListSchema, 'A page of batches'), ...errorResponses },
});

const getRoute = createRoute({
  method: 'get',
  path: '/api/batch/{id}',
  tags: ['Batches'],
  summary: 'A batch with its images so far, per-prompt errors and webhook delivery state',
  request: { params: BatchIdParamSchema },
  responses: { 200: jsonContent(BatchDetailSchema, 'The batch'), ...errorResponses },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/api/batch/{id}/cancel',
  tags: ['Batches'],
  summary: 'Cancel a batch: pending prompts are dropped, finished images stay',
  description: 'Takes no input: send no body, or a JSON `{}`.',
  request: { params: BatchIdParamSchema },
  responses: { 200: jsonContent(BatchSchema, 'The cancelled batch'), ...errorResponses, 409: jsonContent(ErrorSchema, 'The batch already finished') },
});

export const registerReadAndCancelBatch: RegisterRoutes = (app, deps) => {
  app.openapi(listRoute, async (c) => c.json(await listBatches({ deps, ctx: requestContext(c.var), input: pageRequest(c.req.valid('query')) }), 200));
  app.openapi(getRoute, async (c) => c.json(await getBatch({ deps, ctx: requestContext(c.var), input: { batchId: c.req.valid('param').id } }), 200));
  app.openapi(cancelRoute, async (c) => c.json(await cancelBatch({ deps, ctx: requestContext(c.var), input: { batchId: c.req.valid('param').id } }), 200));
};
