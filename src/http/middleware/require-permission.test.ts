import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { effectivePermissions } from '../../domain/keys/principal.js';
import type { AppEnv } from '../app-env.js';
import { onError } from '../errors.js';
import { createRouteTable } from '../route-table.js';
import { requirePermission } from './require-permission.js';

/** A plain Hono route (no `createRoute`, so no `requires(...)`) and a POST-only middleware beside it. */
function appWithUndeclaredRoute(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  const routes = createRouteTable(app);
  app.use('/api/*', async (c, next) => {
    c.set('principal', { userId: 'u', permissions: effectivePermissions(['manage']), isAdmin: true });
    await next();
  });
  app.use('/api/*', requirePermission({ routes }));
  routes.useFor('POST', '/api/*', async (_c, next) => next());
  app.post('/api/undeclared', (c) => c.json({ ran: true }, 201));
  app.onError(onError(pino({ level: 'silent' })));
  return app;
}

describe('requirePermission', () => {
  it('refuses a route that declares no permission, even to a manage key', async () => {
    const res = await appWithUndeclaredRoute().request('/api/undeclared', { method: 'POST' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN', details: { message: 'POST /api/undeclared declares no permission, so no key may call it' } });
  });

  it('leaves a path no route has to the 404 that follows', async () => {
    const res = await appWithUndeclaredRoute().request('/api/nothing', { method: 'GET' });
    expect(res.status).toBe(404);
  });
});
