import { createRoute } from '@hono/zod-openapi';
import { createBatch } from '../../../domain/batches/create-batch.js';
import { requestContext } from '../../app-env.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { BatchSchema, CreateBatchSchema, GenerateBatchSchema } from './schemas.js';

const description =
  'Validates every prompt, the model and the webhook URL, then queues the prompts and answers at once. ' +
  'Both batch paths are the same operation; `name` is optional on /api/batch/generate.';

const createBatchRoute = createRoute({
  method: 'post',
  path: '/api/batch/create',
  tags: ['Batches'],
  summary: 'Create a batch of prompts',
  description,
  request: jsonBody(CreateBatchSchema),
  responses: { 201: jsonContent(BatchSchema, 'The accepted batch'), ...errorResponses },
});

const generateBatchRoute = createRoute({
  method: 'post',
  path: '/api/batch/generate',
  tags: ['Batches'],
  summary: 'Generate several prompts in one call (same as /api/batch/create)',
  description,
  request: jsonBody(GenerateBatchSchema),
  responses: { 201: jsonContent(BatchSchema, 'The accepted batch'), ...errorResponses },
});

export const registerCreateBatch: RegisterRoutes = (app, deps) => {
  app.openapi(createBatchRoute, async (c) => c.json(await createBatch({ deps, ctx: requestContext(c.var), input: c.req.valid('json') }), 201));
  app.openapi(generateBatchRoute, async (c) => c.json(await createBatch({ deps, ctx: requestContext(c.var), input: c.req.valid('json') }), 201));
};
