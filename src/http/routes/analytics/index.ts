import { createRoute } from '@hono/zod-openapi';
import { getCosts, getUsage } from '../../../domain/analytics/analytics-verbs.js';
import { requestContext } from '../../app-env.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CostsSchema, RangeQuerySchema, UsageSchema } from './schemas.js';

const usageRoute = createRoute({
  method: 'get',
  path: '/api/analytics/usage',
  tags: ['Analytics'],
  summary: 'Your image counts and costs, with breakdowns by model and by UTC day',
  request: { query: RangeQuerySchema },
  responses: { 200: jsonContent(UsageSchema, 'Usage statistics'), ...errorResponses },
});

const costsRoute = createRoute({
  method: 'get',
  path: '/api/analytics/costs',
  tags: ['Analytics'],
  summary: 'Your total and average cost, with breakdowns by model and by UTC day',
  request: { query: RangeQuerySchema },
  responses: { 200: jsonContent(CostsSchema, 'Cost statistics'), ...errorResponses },
});

export const registerAnalyticsRoutes: RegisterRoutes = (app, deps) => {
  app.openapi(usageRoute, async (c) => c.json(await getUsage({ deps, ctx: requestContext(c.var), input: c.req.valid('query') }), 200));
  app.openapi(costsRoute, async (c) => c.json(await getCosts({ deps, ctx: requestContext(c.var), input: c.req.valid('query') }), 200));
};
