import { createRoute } from '@hono/zod-openapi';
import { updateKey } from '../../../domain/keys/update-key.js';
import { requires } from '../../route-table.js';
import { ErrorSchema, errorResponses, jsonBody, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { ApiKeySchema, KeyIdParamSchema, UpdateApiKeySchema } from './schemas.js';

const route = createRoute({
  operationId: 'updateApiKey',
  method: 'patch',
  path: '/api/keys/{id}',
  ...requires('manage'),
  tags: ['API keys'],
  summary: "Change a key's name, budgets, plan, rate limit or expiry; it applies from the next request",
  description:
    'Send only the fields to change; null clears a budget or the expiry. A key may set only what it could create: its own plan and limit at most, ' +
    'and a key with a budget cannot raise or clear it (403). A revoked key and the key set by ADMIN_API_KEY answer 409.',
  request: { params: KeyIdParamSchema, ...jsonBody(UpdateApiKeySchema) },
  responses: {
    200: jsonContent(ApiKeySchema, 'The key as it now is'),
    ...errorResponses,
    409: jsonContent(ErrorSchema, 'The key is revoked or managed by the environment'),
  },
});

export const registerUpdateKey: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => {
    const input = { keyId: c.req.valid('param').id, changes: c.req.valid('json') };
    return c.json(await updateKey({ deps, caller: c.get('principal'), input }), 200);
  });
};
