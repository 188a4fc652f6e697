import { createRoute } from '@hono/zod-openapi';
import { getGeneration } from '../../../domain/generations/generation-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerationDetailSchema, GenerationIdParamSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getGeneration',
  method: 'get',
  path: '/api/generations/{id}',
  ...requires('read'),
  tags: ['Generations'],
  summary: 'Get one generation: its status, queue position or progress, and its image once done',
  request: { params: GenerationIdParamSchema },
  responses: { 200: jsonContent(GenerationDetailSchema, 'The generation, with its webhook deliveries'), ...errorResponses },
});

export const registerGetGeneration: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getGeneration({ deps, ctx: requestContext(c), input: { generationId: c.req.valid('param').id } }), 200));
};
