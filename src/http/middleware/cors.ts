import type { MiddlewareHandler } from 'hono';
import { setResponseHeader } from '../response-headers.js';
import type { AppEnv } from '../app-env.js';

export interface CorsOptions {
  origin?: string;
  methods?: readonly string[];
  headers?: readonly string[];
}

/**
 * The spec puts all three CORS headers on every response, errors and the plain `Forbidden` included, so this runs
 * before everything but the response-headers layer, whose record puts them on whatever comes back. Preflight answers
 * come from `preflight()`, which sits after the allow-list so an unlisted client cannot even preflight.
 */
export function cors(options: CorsOptions = {}): MiddlewareHandler<AppEnv> {
  const headers: [string, string][] = [
    ['Access-Control-Allow-Origin', options.origin ?? '*'],
    ['Access-Control-Allow-Methods', (options.methods ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).join(', ')],
    ['Access-Control-Allow-Headers', (options.headers ?? ['Content-Type', 'Idempotency-Key']).join(', ')],
  ];
  return async function corsMiddleware(c, next) {
    for (const [name, value] of headers) setResponseHeader(c, name, value);
    await next();
  };
}

/** The answer to a preflight (OPTIONS): mounted for that method only, so other requests do not pass through it. */
export function preflight(): MiddlewareHandler {
  return async function preflightMiddleware(c) {
    return c.body(null, 204);
  };
}
