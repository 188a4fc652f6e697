import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppEnv, Permission, Principal } from '../app-env.js';
import { renderError } from '../errors.js';

export interface ApiKeyOptions {
  /** The single operator key (`ADMIN_API_KEY`); issue #3 replaces this with stored keys. */
  adminKey: string;
  userId?: string;
}

const ALL: ReadonlySet<Permission> = new Set(['generate', 'read', 'manage']);
const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** `Authorization: Bearer <key>`; anything else is a 401 with `WWW-Authenticate: Bearer`. */
export function apiKey(options: ApiKeyOptions): MiddlewareHandler<AppEnv> {
  const expected = digest(options.adminKey);
  const principal: Principal = { userId: options.userId ?? 'admin', permissions: ALL };

  return async function apiKeyMiddleware(c, next) {
    const header = c.req.header('Authorization') ?? '';
    const match = /^bearer\s+(\S+)\s*$/i.exec(header);
    // Hashing both sides gives equal lengths, so the comparison time says nothing about the key.
    if (match?.[1] === undefined || !timingSafeEqual(digest(match[1]), expected)) {
      const response = renderError(
        c,
        new ApiError(401, 'UNAUTHORIZED', 'Invalid API key', {
          message: header === '' ? 'send Authorization: Bearer <API_KEY>' : 'the API key is missing, malformed or unknown',
        }),
      );
      response.headers.set('WWW-Authenticate', 'Bearer');
      return response;
    }
    c.set('principal', principal);
    await next();
  };
}

export function fixedPrincipal(userId: string): MiddlewareHandler<AppEnv> {
  const principal: Principal = { userId, permissions: ALL };
  return async function fixedPrincipalMiddleware(c, next) {
    c.set('principal', principal);
    await next();
  };
}
