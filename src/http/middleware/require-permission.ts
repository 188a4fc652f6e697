import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { Permission } from '../../domain/keys/principal.js';
import type { AppEnv } from '../app-env.js';

export interface RequirePermissionOptions {
  /** Which permissions (any one) a method and path need. */
  rule: (method: string, path: string) => readonly Permission[];
}

export function requirePermission(options: RequirePermissionOptions): MiddlewareHandler<AppEnv> {
  return async function requirePermissionMiddleware(c, next) {
    const needed = options.rule(c.req.method, c.req.path);
    const held = c.get('principal').permissions;
    if (!needed.some((permission) => held.has(permission))) {
      throw new ApiError(403, 'FORBIDDEN', 'Insufficient permissions', {
        required: needed.join(' or '),
        granted: [...held],
        message: `this key lacks the ${needed.join(' or ')} permission for ${c.req.method} ${c.req.path}`,
      });
    }
    await next();
  };
}
