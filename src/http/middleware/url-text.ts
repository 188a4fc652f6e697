import type { MiddlewareHandler } from 'hono';
import { ApiError, invalidParameter } from '../../domain/errors.js';
import { textProblem } from '../../domain/json-shape.js';

/**
 * Path and query text must be storable and comparable on every database (PostgreSQL text cannot hold
 * U+0000): an id with a NUL names nothing (404), a query value with one is a 400 naming the parameter.
 */
export function urlText(): MiddlewareHandler {
  return async function urlTextMiddleware(c, next) {
    // Only a percent-escape can carry a NUL or a lone surrogate into the decoded text (the HTTP parser refuses raw
    // control bytes; raw non-ASCII decodes as UTF-8, never to a lone surrogate): most URLs need no parsing here.
    if (!c.req.url.includes('%')) return next();
    const url = new URL(c.req.url);
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // Malformed escapes are left to routing, which answers 404 for them.
    }
    if (path.includes('\u0000'))
      throw new ApiError('NOT_FOUND', 'Not found', { path: url.pathname, message: 'no resource has a NUL character (%00) in its id' });
    for (const [name, value] of url.searchParams) {
      const problem = textProblem(name) ?? textProblem(value);
      if (problem !== undefined) throw invalidParameter(name, `${name} ${problem}`);
    }
    await next();
  };
}
