import { createRoute } from '@hono/zod-openapi';
import { listKeys } from '../../../domain/keys/key-verbs.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { KeyListSchema, ListKeysQuerySchema } from './schemas.js';

const route = createRoute({
  operationId: 'listApiKeys',
  method: 'get',
  path: '/api/keys',
  ...requires('manage'),
  tags: ['API keys'],
  summary: "List your user's keys (never their secrets)",
  request: { query: ListKeysQuerySchema },
  responses: { 200: jsonContent(KeyListSchema, 'A page of keys'), ...errorResponses },
});

export const registerListKeys: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const query = c.req.valid('query');
    const input = { ...pageRequest(query), user_id: query.user_id };
    return c.json(await listKeys({ deps, caller: c.get('principal'), input }), 200);
  });
};
