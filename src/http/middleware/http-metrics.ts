import type { MiddlewareHandler } from 'hono';
import type { Metrics } from '../../ports/metrics.js';
import type { AppEnv } from '../app-env.js';
import { CLIENT_CLOSED_REQUEST, clientAborted } from '../errors.js';
import type { RouteTable } from '../route-table.js';

/** The `route` of a request no route has: one series for every unknown path, so scanners cannot add series. */
export const UNMATCHED_ROUTE = 'unmatched';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The route template a request belongs to (`/api/images/:id`, never the id itself): its own method's route, or
 * for a preflight or a 405 the route of another method at that path; `unmatched` when the path has none.
 */
export function routeTemplate(routes: RouteTable, method: string, path: string): string {
  const own = routes.match(method, path);
  if (own !== undefined) return own.path;
  for (const other of ROUTE_METHODS) {
    const route = routes.match(other, path);
    if (route !== undefined) return route.path;
  }
  return UNMATCHED_ROUTE;
}

/** Counts and times every request by method, route template and status (499 for a client that hung up). */
export function httpMetrics(options: { metrics: Pick<Metrics, 'httpRequest'>; routes: RouteTable }): MiddlewareHandler<AppEnv> {
  return async function httpMetricsMiddleware(c, next) {
    const started = performance.now();
    await next();
    options.metrics.httpRequest({
      method: c.req.method,
      route: routeTemplate(options.routes, c.req.method, c.req.path),
      status: clientAborted(c) ? CLIENT_CLOSED_REQUEST : c.res.status,
      seconds: (performance.now() - started) / 1000,
    });
  };
}
