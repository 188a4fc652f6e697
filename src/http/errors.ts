import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from '../ports/logger.js';
import { ApiError, dependencyUnavailable, invalidBody } from '../domain/errors.js';
import { DependencyUnavailable } from '../ports/dependency-unavailable.js';
import type { AppEnv } from './app-env.js';
import { MAY_HAVE_BEEN_CHARGED, statusOf } from './error-status.js';
import { isOpenAiPath, renderOpenAiError } from './openai/openai-errors.js';
import type { RouteTable } from './route-table.js';

export function renderError(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const all: Record<string, string> = { ...headers };
  if (error.retryAfterSeconds !== undefined) all['Retry-After'] = String(error.retryAfterSeconds);
  // A 502/504 that may already have been paid for: clients that retry 5xx on their own (OpenAI's SDKs) must not.
  if (MAY_HAVE_BEEN_CHARGED.has(error.code)) all['x-should-retry'] = 'false';
  // The one switch between the two error dialects: /v1 is OpenAI's surface, so its clients get OpenAI's shape.
  if (isOpenAiPath(c.req.path)) return renderOpenAiError(c, error, all);
  return c.json(error.toBody(), statusOf(error.code), all);
}

/** nginx's status for a request whose client closed the connection first; never sent, the socket is gone. */
export const CLIENT_CLOSED_REQUEST = 499;

/** What @hono/node-server passes as `c.env`: the Node response, read here by shape (no Node import in http/). */
interface NodeBindings {
  outgoing?: { destroyed?: unknown; writableFinished?: unknown };
}

/**
 * True once the client has closed the connection before its answer was written. On Node the response says so
 * directly (destroyed before it finished, the very test @hono/node-server aborts the request's signal on): asking
 * for `signal` would make an AbortController for every request, a measurable share of a small request's time.
 * Elsewhere (Workers, `app.request`) the request's signal.
 */
export const clientAborted = (c: Context): boolean => {
  const outgoing = (c.env as NodeBindings | undefined)?.outgoing;
  if (typeof outgoing?.destroyed === 'boolean') return outgoing.destroyed && outgoing.writableFinished !== true;
  return c.req.raw.signal.aborted;
};

/** One place renders every failure as the spec's `{ error, details, code }` (OpenAI's shape under /v1); a 500 never echoes internals. */
export function onError(logger: Logger, options: { describeParameterErrors?: boolean } = {}): ErrorHandler<AppEnv> {
  return function handleError(error, c) {
    // The client hung up: whatever failed after that (its body cut short, a generation stopped) is not a fault
    // here and nobody reads the answer. The request log writes the one line (`client_aborted`, at info).
    if (clientAborted(c)) return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    if (error instanceof ApiError) {
      if (statusOf(error.code) >= 500) logger.error({ requestId: c.get('requestId'), err: error }, error.message);
      // A refusal with a cause (a decoder's own words) is the caller's fault, but the words help whoever looks into it.
      else if (error.cause !== undefined)
        logger.warn(
          { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, code: error.code, cause: String(error.cause) },
          `request refused: ${error.message}`,
        );
      return renderError(c, options.describeParameterErrors === true ? describeParameter(error) : error);
    }
    // The database, Redis or storage out of reach: an honest, retryable 503. At debug only: the request log has
    // the 503, and the adapter warns once per burst, so an outage is not one warning per request.
    if (error instanceof DependencyUnavailable) {
      logger.debug({ requestId: c.get('requestId'), dependency: error.dependency, err: error.message }, 'request failed: a dependency is unavailable');
      return renderError(c, dependencyUnavailable(error));
    }
    if (error instanceof HTTPException && error.status < 500) {
      // Hono's validators throw these for bodies they cannot read; the body middleware catches the usual ones first.
      const multipart = /^multipart\/form-data/i.test(c.req.header('Content-Type') ?? '');
      return renderError(
        c,
        invalidBody(
          multipart
            ? 'the multipart body could not be read: send a well-formed multipart/form-data body whose parts match its boundary (as curl -F or a FormData sends it)'
            : 'the request body could not be read as JSON; send a JSON object',
        ),
      );
    }
    logger.error({ requestId: c.get('requestId'), err: error }, 'unhandled error');
    return renderError(c, new ApiError('INTERNAL_ERROR', 'Internal server error', { request_id: c.get('requestId') ?? null }));
  };
}

/** The key-based mode's parameter errors: `error` says what is wrong with the parameter, `details` stay. */
function describeParameter(error: ApiError): ApiError {
  const details = error.details;
  if (error.code !== 'INVALID_PARAMETER' || typeof details !== 'object' || typeof details.message !== 'string') return error;
  return new ApiError(error.code, details.message, details);
}

/** No route: 405 with `Allow` when the path exists under other methods, else 404. */
export function onNotFound(routes: RouteTable): NotFoundHandler<AppEnv> {
  return function handleNotFound(c) {
    const allowed = routes.allowedMethods(c.req.path);
    if (allowed.length > 0) {
      const error = new ApiError('METHOD_NOT_ALLOWED', 'Method not allowed', {
        method: c.req.method,
        path: c.req.path,
        allowed,
        message: `${c.req.path} accepts ${allowed.join(', ')}, not ${c.req.method}`,
      });
      return renderError(c, error, { Allow: allowed.join(', ') });
    }
    return renderError(c, new ApiError('NOT_FOUND', 'Not found', { method: c.req.method, path: c.req.path, message: 'no such route; see /docs' }));
  };
}
