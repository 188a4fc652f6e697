import { createRoute, z } from '@hono/zod-openapi';
import { whoAmI } from '../../../domain/keys/who-am-i.js';
import { requires } from '../../route-table.js';
import { errorResponses, jsonContent } from '../../schemas.js';
import { ApiKeySchema } from '../keys/schemas.js';
import type { RegisterRoutes } from '../types.js';

const MeSchema = z
  .object({
    user_id: z.string(),
    auth_mode: z.enum(['api_key', 'ip_allowlist']),
    permissions: z
      .array(z.enum(['generate', 'read', 'manage']))
      .openapi({ description: 'What this caller may do, expanded: manage carries read and generate' }),
    is_admin: z.boolean(),
    key: ApiKeySchema.extend({
      revocable: z.boolean().openapi({ description: 'Always false: a key cannot revoke itself' }),
      not_revocable_reason: z.string().nullable(),
    })
      .nullable()
      .openapi({ description: 'The key of this request: plan, rate limit, budgets and spend; null in the IP allow-list mode' }),
  })
  .openapi('Me');

const route = createRoute({
  operationId: 'getMe',
  method: 'get',
  path: '/api/me',
  ...requires('read', 'generate', 'manage'),
  tags: ['API keys'],
  summary: 'Who you are: your user, your permissions, and your key with its plan, limits, budgets and spend',
  description: 'Any key may ask, whatever its permissions, so a client can show only what the key may do.',
  responses: { 200: jsonContent(MeSchema, 'The caller'), ...errorResponses },
});

export const registerMe: RegisterRoutes = (app, deps) => {
  app.openapi(route, async (c) => c.json(await whoAmI(deps, c.get('principal')), 200, { 'Cache-Control': 'no-store' }));
};
