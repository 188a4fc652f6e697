import { createRoute } from '@hono/zod-openapi';
import { createKey, listKeys, revokeKey } from '../../../domain/keys/key-verbs.js';
import { errorResponses, jsonBody, jsonContent, pageRequest } from '../../schemas.js';
import type { RegisterRoutes } from '../types.js';
import { CreateApiKeySchema, CreatedApiKeySchema, KeyIdParamSchema, KeyListSchema, ListKeysQuerySchema, RevokedKeySchema } from './schemas.js';

const createKeyRoute = createRoute({
  method: 'post',
  path: '/api/keys',
  tags: ['API keys'],
  summary: 'Create an API key (the secret is in `key`, shown once)',
  request: jsonBody(CreateApiKeySchema),
  responses: { 201: jsonContent(CreatedApiKeySchema, 'The new key with its secret'), ...errorResponses },
});

const listKeysRoute = createRoute({
  method: 'get',
  path: '/api/keys',
  tags: ['API keys'],
  summary: "List your user's keys (never their secrets)",
  request: { query: ListKeysQuerySchema },
  responses: { 200: jsonContent(KeyListSchema, 'A page of keys'), ...errorResponses },
});

const revokeKeyRoute = createRoute({
  method: 'delete',
  path: '/api/keys/{id}',
  tags: ['API keys'],
  summary: 'Revoke a key; it answers 401 from then on',
  request: { params: KeyIdParamSchema },
  responses: { 200: jsonContent(RevokedKeySchema, 'The key is revoked'), ...errorResponses },
});

export const registerKeyRoutes: RegisterRoutes = (app, deps) => {
  app.openapi(createKeyRoute, async (c) => c.json(await createKey({ deps, caller: c.get('principal'), input: c.req.valid('json') }), 201));
  app.openapi(listKeysRoute, async (c) => {
    const query = c.req.valid('query');
    const input = { ...pageRequest(query), user_id: query.user_id };
    return c.json(await listKeys({ deps, caller: c.get('principal'), input }), 200);
  });
  app.openapi(revokeKeyRoute, async (c) => c.json(await revokeKey({ deps, caller: c.get('principal'), input: { keyId: c.req.valid('param').id } }), 200));
};
