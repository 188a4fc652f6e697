import { createRoute } from '@hono/zod-openapi';
import { createKey } from '../../../domain/keys/key-verbs.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CreateApiKeySchema, CreatedApiKeySchema } from './schemas.js';

const route = createRoute({
  operationId: 'createApiKey',
  method: 'post',
  path: '/api/keys',
  ...requires('manage'),
  tags: ['API keys'],
  summary: 'Create an API key (the secret is in `key`, shown once)',
  request: jsonBody(CreateApiKeySchema),
  responses: { 201: jsonContent(CreatedApiKeySchema, 'The new key with its secret'), ...errorResponses },
});

export const registerCreateKey: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await createKey({ deps, caller: c.get('principal'), input: c.req.valid('json') }), 201));
};
