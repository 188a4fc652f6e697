import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../ports/logger.js';
import type { AppEnv } from '../app-env.js';
import { clientAborted } from '../errors.js';
import { setResponseHeader } from '../response-headers.js';

export interface RequestLogOptions {
  logger: Logger;
  newRequestId?: () => string;
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** One line per request (method, path, status, duration, request id) and `X-Request-Id` on every response. */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<AppEnv> {
  // Web Crypto's randomUUID: the same on Node and Workers.
  const newRequestId = options.newRequestId ?? (() => `req_${crypto.randomUUID().replaceAll('-', '')}`);
  return async function requestLogMiddleware(c, next) {
    const incoming = c.req.header('X-Request-Id');
    const requestId = incoming !== undefined && SAFE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
    c.set('requestId', requestId);
    setResponseHeader(c, 'X-Request-Id', requestId);
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    if (clientAborted(c)) {
      // A hang-up is the client's choice, not a failure: one info line, no status (none was sent), no stack.
      options.logger.info({ requestId, method: c.req.method, path: c.req.path, ms }, 'client_aborted');
      return;
    }
    const status = c.res.status;
    const line = { requestId, method: c.req.method, path: c.req.path, status, ms };
    if (status >= 500) options.logger.error(line, 'request');
    else options.logger.info(line, 'request');
  };
}
