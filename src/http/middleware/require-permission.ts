import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../app-env.js';
import type { RouteTable } from '../route-table.js';

export interface RequirePermissionOptions {
  /** Each route declares the permissions it needs (`requires(...)` beside `createRoute`). */
  routes: RouteTable;
}

/** A key passes with any one of the route's permissions; `manage` carries the other two. No route: 404/405 follow. */
export function requirePermission(options: RequirePermissionOptions): MiddlewareHandler<AppEnv> {
  return async function requirePermissionMiddleware(c, next) {
    const needed = options.routes.match(c.req.method, c.req.path)?.permissions;
    if (needed === undefined) return next();
    const held = c.get('principal').permissions;
    if (!needed.some((permission) => held.has(permission))) {
      throw new ApiError('FORBIDDEN', 'Insufficient permissions', {
        required: needed.join(' or '),
        granted: [...held],
        message: `this key lacks the ${needed.join(' or ')} permission for ${c.req.method} ${c.req.path}`,
      });
    }
    await next();
  };
}
