import { createRoute } from '@hono/zod-openapi';
import { listCharges } from '../../../domain/analytics/charge-verbs.js';
import { requestContext } from '../../app-env.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { ChargeListSchema, ChargesQuerySchema } from './charge-schemas.js';

const route = createRoute({
  operationId: 'listCharges',
  method: 'get',
  path: '/api/analytics/charges',
  ...requires('read'),
  tags: ['Analytics'],
  summary: 'The charge ledger: every provider call that may have cost money, newest first, with its outcome and cost',
  request: { query: ChargesQuerySchema },
  responses: { 200: jsonContent(ChargeListSchema, 'A page of charges'), ...errorResponses },
});

export const registerCharges: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const input = { ...pageRequest(query), from: query.from, to: query.to, key_id: query.key_id, outcome: query.outcome };
    return c.json(await listCharges({ deps, ctx: requestContext(c), input }), 200);
  });
};
