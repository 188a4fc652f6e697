import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { KeyAuthenticator } from '../../domain/keys/authenticate.js';
import { defaultUserPrincipal } from '../../domain/keys/principal.js';
import type { AppEnv } from '../app-env.js';
import { renderError } from '../errors.js';

export interface ApiKeyOptions {
  authenticator: KeyAuthenticator;
}

const BEARER = /^bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/** `Authorization: Bearer <key>`; a missing, malformed, unknown, revoked or expired key is a 401. */
export function apiKey(options: ApiKeyOptions): MiddlewareHandler<AppEnv> {
  return async function apiKeyMiddleware(c, next) {
    const header = c.req.header('Authorization');
    const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const principal = secret === undefined ? undefined : await options.authenticator.authenticate(secret);
    if (principal === undefined) {
      const message =
        header === undefined
          ? 'send Authorization: Bearer <API_KEY>'
          : secret === undefined
            ? 'the Authorization header must be "Bearer <API_KEY>"'
            : 'the API key is unknown, revoked or expired';
      const response = renderError(c, new ApiError(401, 'UNAUTHORIZED', 'Invalid API key', { message }));
      response.headers.set('WWW-Authenticate', 'Bearer');
      return response;
    }
    c.set('principal', principal);
    await next();
  };
}

/** The IP allow-list mode: every request acts as `default_user` with full access. */
export function defaultUser(): MiddlewareHandler<AppEnv> {
  return async function defaultUserMiddleware(c, next) {
    c.set('principal', defaultUserPrincipal);
    await next();
  };
}
