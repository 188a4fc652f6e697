import { createRoute } from '@hono/zod-openapi';
import { listGenerations } from '../../../domain/generations/generation-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { GenerationListQuerySchema, GenerationListSchema } from './schemas.js';

const route = createRoute({
  operationId: 'listGenerations',
  method: 'get',
  path: '/api/generations',
  ...requires('read'),
  tags: ['Generations'],
  summary: "The caller's generations, newest first, optionally of one status",
  request: { query: GenerationListQuerySchema },
  responses: { 200: jsonContent(GenerationListSchema, 'A page of generations'), ...errorResponses },
});

export const registerListGenerations: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const input = { ...pageRequest(query), ...(query.status === undefined ? {} : { status: query.status }) };
    return c.json(await listGenerations({ deps, ctx: requestContext(c), input }), 200);
  });
};
