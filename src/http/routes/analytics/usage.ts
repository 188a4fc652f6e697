import { createRoute } from '@hono/zod-openapi';
import { getUsage } from '../../../domain/analytics/analytics-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { RangeQuerySchema, UsageSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getUsage',
  method: 'get',
  path: '/api/analytics/usage',
  ...requires('read'),
  tags: ['Analytics'],
  summary: 'Your image counts and costs, with breakdowns by model and by UTC day',
  request: { query: RangeQuerySchema },
  responses: { 200: jsonContent(UsageSchema, 'Usage statistics'), ...errorResponses },
});

export const registerUsage: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getUsage({ deps, ctx: requestContext(c), input: c.req.valid('query') }), 200));
};
