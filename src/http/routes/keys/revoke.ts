import { createRoute } from '@hono/zod-openapi';
import { revokeKey } from '../../../domain/keys/key-verbs.js';
import { requires } from '../../route-table.js';
import { ErrorSchema, errorResponses, jsonContent } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { KeyIdParamSchema, RevokedKeySchema } from './schemas.js';

const route = createRoute({
  operationId: 'revokeApiKey',
  method: 'delete',
  path: '/api/keys/{id}',
  ...requires('manage'),
  tags: ['API keys'],
  summary: 'Revoke a key; it answers 401 from then on',
  description: 'A key cannot revoke itself, and the key set by ADMIN_API_KEY is managed by the environment: both answer 409.',
  request: { params: KeyIdParamSchema },
  responses: {
    200: jsonContent(RevokedKeySchema, 'The key is revoked'),
    ...errorResponses,
    409: jsonContent(ErrorSchema, 'This key cannot be revoked through the API'),
  },
});

export const registerRevokeKey: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await revokeKey({ deps, caller: c.get('principal'), input: { keyId: c.req.valid('param').id } }), 200));
};
