import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv } from '../app-env.js';
import type { RouteTable } from '../route-table.js';

export interface RequirePermissionOptions {
  /** Each route declares the permissions it needs (`requires(...)` beside `createRoute`). */
  routes: RouteTable;
}

/**
 * A key passes with any one of the route's permissions; `manage` carries the other two. No route: 404/405 follow.
 * Fails closed: a route under the API that declares no permission is refused to every key, so forgetting
 * `requires(...)` shows up as a 403 in the route's first test, never as an open route.
 */
export function requirePermission(options: RequirePermissionOptions): MiddlewareHandler<AppEnv> {
  return async function requirePermissionMiddleware(c, next) {
    const route = options.routes.match(c.req.method, c.req.path);
    if (route === undefined) return next();
    const needed = route.permissions ?? [];
    const held = c.get('principal').permissions;
    if (!needed.some((permission) => held.has(permission))) {
      if (needed.length === 0) {
        throw new ApiError('FORBIDDEN', 'Insufficient permissions', { message: `${c.req.method} ${route.path} declares no permission, so no key may call it` });
      }
      throw new ApiError('FORBIDDEN', 'Insufficient permissions', {
        required: needed.join(' or '),
        granted: [...held],
        message: `this key lacks the ${needed.join(' or ')} permission for ${c.req.method} ${c.req.path}`,
      });
    }
    await next();
  };
}
