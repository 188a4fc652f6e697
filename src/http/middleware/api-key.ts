import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { KeyAuthenticator } from '../../domain/keys/authenticate.js';
import { defaultUserPrincipal } from '../../domain/keys/principal.js';
import type { Metrics } from '../../ports/metrics.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import type { AppEnv } from '../app-env.js';
import { renderError } from '../errors.js';

export interface FailedAuthLimit {
  limiter: RateLimiter;
  /** Failed authentications allowed per client address and minute before 429s. */
  perMinute: number;
  clientAddress: (c: Context) => string;
  now: () => number;
  /** Counts each 429 as `imagegate_rate_limit_refusals_total{limiter="failed_auth"}`. */
  metrics?: Pick<Metrics, 'rateLimitRefused'>;
}

export interface ApiKeyOptions {
  authenticator: KeyAuthenticator;
  /** Guessing keys costs a 429 after a few misses; a valid key is never limited by this. */
  failures?: FailedAuthLimit;
}

const BEARER = /^bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/** `Authorization: Bearer <key>`; a missing, malformed, unknown, revoked or expired key is a 401. */
export function apiKey(options: ApiKeyOptions): MiddlewareHandler<AppEnv> {
  const { failures } = options;
  return async function apiKeyMiddleware(c, next) {
    const header = c.req.header('Authorization');
    const secret = header === undefined ? undefined : BEARER.exec(header)?.[1];
    const principal = secret === undefined ? undefined : await options.authenticator.authenticate(secret);
    if (principal !== undefined) {
      c.set('principal', principal);
      return next();
    }
    if (failures !== undefined) {
      const decision = await failures.limiter.consume(`auth-failures:${failures.clientAddress(c)}`, failures.perMinute);
      if (!decision.allowed) {
        failures.metrics?.rateLimitRefused('failed_auth');
        const retryAfter = Math.max(1, Math.ceil((decision.resetAt - failures.now()) / 1000));
        const error = new ApiError('RATE_LIMITED', 'Too many failed authentications', {
          limit: decision.limit,
          message: `more than ${decision.limit} requests with a missing or invalid API key from your address this minute; retry after ${retryAfter} s with a valid key`,
        });
        return renderError(c, error, { 'Retry-After': String(retryAfter), 'WWW-Authenticate': 'Bearer' });
      }
    }
    const message =
      header === undefined
        ? 'send Authorization: Bearer <API_KEY>'
        : secret === undefined
          ? 'the Authorization header must be "Bearer <API_KEY>"'
          : 'the API key is unknown, revoked or expired';
    return renderError(c, new ApiError('UNAUTHORIZED', 'Invalid API key', { message }), { 'WWW-Authenticate': 'Bearer' });
  };
}

/** The IP allow-list mode: every request acts as `default_user` with full access. */
export function defaultUser(): MiddlewareHandler<AppEnv> {
  return async function defaultUserMiddleware(c, next) {
    c.set('principal', defaultUserPrincipal);
    await next();
  };
}
