import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.js';

/**
 * Headers every response carries (X-Request-Id, CORS, X-RateLimit-*), gathered in one plain record while the
 * request runs and written onto the response once, at the end.
 *
 * Why not `c.res.headers.set` in each middleware: the first touch of `res.headers` turns the response's plain
 * header record into a WHATWG `Headers`, whose every `set` validates its name and value and whose iteration sorts;
 * on a cached gallery page that was a fifth of the request's CPU (0.52x of bare Hono instead of 0.62x). A route
 * answering through `respondWith` puts the record into the response it builds, and nothing is touched afterwards;
 * any other response (c.json, errors, the allow-list's Forbidden) gets the same headers set one by one, as before.
 */
type HeadersContext = Pick<Context<AppEnv>, 'get' | 'set'>;

/** The request's record, a variable of its context: it goes with the request (no table of requests to keep). */
function bagOf(c: HeadersContext): Record<string, string> {
  const bag = c.get('responseHeaders');
  if (bag !== undefined) return bag;
  const made: Record<string, string> = {};
  c.set('responseHeaders', made);
  return made;
}

/** Adds a header to the response of this request, whichever way it is answered. Call before the answer is built. */
export function setResponseHeader(c: HeadersContext, name: string, value: string): void {
  bagOf(c)[name] = value;
}

/**
 * The answer of a route with the request's headers already in it: one `Response` from a plain record, the shape
 * @hono/node-server writes without building a `Headers`. `contentType` is the body's type.
 */
export function respondWith(c: HeadersContext, body: string, status: number, contentType: string): Response {
  const bag = bagOf(c);
  // The record itself becomes the response's headers (a copy would cost as much as the rest of this function).
  bag['Content-Type'] = contentType;
  const response = new Response(body, { status, headers: bag });
  // A header added after this would be lost: frozen, such a `setResponseHeader` throws instead.
  Object.freeze(bag);
  c.set('builtResponse', response);
  return response;
}

/** Outermost: puts the gathered headers on every response that `respondWith` did not build. */
export function responseHeaders(): MiddlewareHandler<AppEnv> {
  return async function responseHeadersMiddleware(c, next) {
    const bag = bagOf(c);
    await next();
    if (c.get('builtResponse') === c.res) return;
    for (const name in bag) c.res.headers.set(name, bag[name] ?? '');
  };
}
