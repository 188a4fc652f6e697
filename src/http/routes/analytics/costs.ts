import { createRoute } from '@hono/zod-openapi';
import { getCosts } from '../../../domain/analytics/analytics-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CostsQuerySchema, CostsSchema } from './schemas.js';

const route = createRoute({
  operationId: 'getCosts',
  method: 'get',
  path: '/api/analytics/costs',
  ...requires('read'),
  tags: ['Analytics'],
  summary: 'Your total and average cost, with breakdowns by model and by UTC day (of one key with `key_id`), and what the ledger recorded without an image',
  request: { query: CostsQuerySchema },
  responses: { 200: jsonContent(CostsSchema, 'Cost statistics'), ...errorResponses },
});

export const registerCosts: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await getCosts({ deps, ctx: requestContext(c), input: c.req.valid('query') }), 200));
};
