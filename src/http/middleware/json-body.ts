import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../domain/errors.js';
import { renderError } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;

export interface JsonBodyOptions {
  maxBytes?: number;
  /** Paths of actions that take no input (`POST .../cancel`): a request with no body at all may go through. */
  bodiless?: readonly RegExp[];
}

/** POST and PUT bodies: JSON only, at most 1 MiB, parsed once here so every route sees the same rules. */
export function jsonBody(options: JsonBodyOptions = {}): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const bodiless = options.bodiless ?? [];
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      renderError(c, new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large', { max_bytes: maxBytes, message: `JSON bodies are limited to ${maxBytes} bytes` })),
  });

  return async function jsonBodyMiddleware(c, next) {
    if (c.req.method !== 'POST' && c.req.method !== 'PUT') return next();
    const type = c.req.header('Content-Type');
    const noBody = type === undefined && c.req.header('Transfer-Encoding') === undefined && (c.req.header('Content-Length') ?? '0') === '0';
    if (noBody && bodiless.some((pattern) => pattern.test(c.req.path))) return next();
    if (type === undefined || !JSON_TYPE.test(type)) {
      throw new ApiError(400, 'INVALID_REQUEST_BODY', 'Invalid request body', `Content-Type must be application/json (got ${type === undefined ? 'none' : JSON.stringify(type)})`);
    }
    return limit(c, async () => {
      const text = await c.req.text();
      if (text.trim() === '') {
        throw new ApiError(400, 'INVALID_REQUEST_BODY', 'Invalid request body', 'Request body is empty; send a JSON object');
      }
      try {
        JSON.parse(text);
      } catch (error) {
        throw new ApiError(400, 'INVALID_REQUEST_BODY', 'Invalid request body', `Request body is not valid JSON: ${(error as Error).message}`);
      }
      await next();
    });
  };
}
