import type { MiddlewareHandler } from 'hono';

export interface CorsOptions {
  origin?: string;
  methods?: readonly string[];
  headers?: readonly string[];
}

/**
 * The spec puts all three CORS headers on every response, errors and the plain `Forbidden` included,
 * so this runs outermost and decorates whatever comes back. Preflight answers come from `preflight()`,
 * which sits after the allow-list so an unlisted client cannot even preflight.
 */
export function cors(options: CorsOptions = {}): MiddlewareHandler {
  const headers: [string, string][] = [
    ['Access-Control-Allow-Origin', options.origin ?? '*'],
    ['Access-Control-Allow-Methods', (options.methods ?? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).join(', ')],
    ['Access-Control-Allow-Headers', (options.headers ?? ['Content-Type', 'Idempotency-Key']).join(', ')],
  ];
  return async function corsMiddleware(c, next) {
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
  };
}

export function preflight(): MiddlewareHandler {
  return async function preflightMiddleware(c, next) {
    if (c.req.method === 'OPTIONS') return c.body(null, 204);
    await next();
  };
}
