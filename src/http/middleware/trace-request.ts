import type { MiddlewareHandler } from 'hono';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { contextFromCarrier, inSpan, tracingEnabled } from '../../ports/tracer.js';
import type { AppEnv } from '../app-env.js';
import type { RouteTable } from '../route-table.js';

export interface TraceRequestOptions {
  routes: RouteTable;
}

/**
 * The server span of each request, continuing the caller's W3C `traceparent` (and `tracestate`) when it sent one.
 * Named `METHOD /route/template` after the route the request reaches (OpenTelemetry's HTTP conventions: the
 * template, never the raw path, so names stay few); just `METHOD` when no route matches. A 5xx is an error;
 * a 4xx is the caller's and leaves the status unset, as the conventions say for server spans.
 */
export function traceRequest(options: TraceRequestOptions): MiddlewareHandler<AppEnv> {
  return async function traceRequestMiddleware(c, next) {
    // With tracing off every span is a no-op: the request goes on without making one.
    if (!tracingEnabled()) return next();
    const method = c.req.method;
    const carrier: Record<string, string | undefined> = { traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') };
    const parent = carrier.traceparent === undefined ? undefined : contextFromCarrier(carrier);
    await inSpan(method, { kind: 'server', parent, attributes: { 'http.request.method': method, 'url.path': c.req.path } }, async (span) => {
      // Only a recorded span is worth the route lookup; with tracing off nothing is recorded.
      if (span.isRecording()) name(span, method, options.routes.match(method, c.req.path)?.path);
      await next();
      if (!span.isRecording()) return;
      span.setAttribute('imagegate.request_id', c.get('requestId'));
      if (c.error !== undefined && c.res.status >= 500) span.recordException(c.error);
      span.setAttribute('http.response.status_code', c.res.status);
      if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${c.res.status}` });
    });
  };
}

function name(span: Span, method: string, pattern: string | undefined): void {
  if (pattern === undefined) return;
  // Hono's `/api/models/:id{.+}` is the route `/api/models/:id`: the regular expression is matching detail.
  const route = pattern.replace(/(:[A-Za-z0-9_]+)\{[^}]*\}/g, '$1');
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}
