import { createRoute } from '@hono/zod-openapi';
import { createBatch } from '../../../domain/batches/create-batch.js';
import { requestContext } from '../../app-env.js';
import { idempotent, requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BATCH_DESCRIPTION, BatchSchema, CreateBatchSchema } from './schemas.js';

const route = createRoute({
  operationId: 'createBatch',
  method: 'post',
  path: '/api/batch/create',
  ...requires('generate'),
  ...idempotent(),
  tags: ['Batches'],
  summary: 'Create a batch of prompts',
  description: BATCH_DESCRIPTION,
  request: jsonBody(CreateBatchSchema),
  responses: { 201: jsonContent(BatchSchema, 'The accepted batch'), ...errorResponses },
});

export const registerCreateBatch: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await createBatch({ deps, ctx: requestContext(c), input: c.req.valid('json') }), 201));
};
