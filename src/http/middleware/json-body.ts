import type { Context, MiddlewareHandler, Next } from 'hono';
import { MAX_UPLOAD_BYTES } from '../../domain/inputs/input-limits.js';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, invalidBody } from '../../domain/errors.js';
import { renderError } from '../errors.js';
import { checkStorable } from '../../domain/json-shape.js';
import type { RouteTable } from '../route-table.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Any request body; `metadata` has its own, tighter limit. Deeper bodies are hostile, not data. */
export const MAX_BODY_DEPTH = 32;

/** The test Hono's JSON validator applies: the media type before any `;`, any case, `+json` suffixes included. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const isJsonContentType = (header: string | undefined): boolean =>
  header !== undefined && JSON_MEDIA_TYPE.test((header.split(';')[0] ?? '').trim());

export interface JsonBodyOptions {
  routes: RouteTable;
  maxBytes?: number;
}

/** Multipart bodies carry files of up to MAX_UPLOAD_BYTES each, plus their form fields. */
export const MAX_MULTIPART_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024;

const multipartLimit = bodyLimit({
  maxSize: MAX_MULTIPART_BYTES,
  onError: (c) =>
    renderError(
      c,
      new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', {
        max_bytes: MAX_UPLOAD_BYTES,
        message: `files are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (a multipart request to ${MAX_MULTIPART_BYTES} bytes in all): send a smaller image`,
      }),
      { Connection: 'close' },
    ),
});

/**
 * The request as the routes see it, with this Content-Type. Node's request headers can be changed in place; a
 * Worker's cannot ("Can't modify immutable headers"), so there the request is copied with the new header: with
 * its body unread (multipart), or with the text already read (JSON, which Hono keeps in its body cache).
 */
function withContentType(c: Context, value: string, readText?: string): void {
  if (c.req.header('Content-Type') === value) return;
  const raw = c.req.raw;
  try {
    raw.headers.set('Content-Type', value);
  } catch {
    const headers = new Headers(raw.headers);
    headers.set('Content-Type', value);
    c.req.raw = readText === undefined ? new Request(raw, { headers }) : new Request(raw.url, { method: raw.method, headers, body: readText, signal: raw.signal });
  }
}

/** `multipart/form-data` with a boundary parameter (quoted or not), in any case and with any spaces. */
const MULTIPART = /^\s*multipart\/form-data\s*;(?:.*;)?\s*boundary\s*=\s*"?([^";\s]+)"?/i;

/** Multipart routes take files: the form's media type with its boundary, and the larger limit; the route parses it. */
function multipartBody(c: Context, next: Next): Promise<Response | void> {
  const type = c.req.header('Content-Type');
  const boundary = type === undefined ? undefined : MULTIPART.exec(type)?.[1];
  if (boundary === undefined) {
    throw invalidBody(`send the image as multipart/form-data with its boundary (as curl -F or a FormData does; got ${type === undefined ? 'no Content-Type' : JSON.stringify(type)})`);
  }
  // Any valid spelling (RFC 9110: spaces around `;`, any case, a quoted boundary) reaches the route in the plain
  // form, which is the only one @hono/zod-openapi's own check lets through.
  withContentType(c, `multipart/form-data; boundary=${boundary}`);
  return multipartLimit(c, next);
}

/**
 * POST, PUT and PATCH bodies: JSON only, at most 1 MiB, parsed and checked once here so every route sees the same
 * rules. An operation that declares no body (`POST .../cancel`) accepts an empty body whatever its headers.
 * A body sent too slowly is cut off before it gets here, by the server's request deadline (408, in
 * src/entry/server-limits.ts): that covers every route and the headers too, and a runtime-neutral timer here
 * could not free the socket.
 */
export function jsonBody(options: JsonBodyOptions): MiddlewareHandler {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const limit = bodyLimit({
    maxSize: maxBytes,
    // The rest of the body is never read, so the connection cannot carry another request: say so.
    onError: (c) =>
      renderError(c, new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', { max_bytes: maxBytes, message: `JSON bodies are limited to ${maxBytes} bytes` }), {
        Connection: 'close',
      }),
  });

  return async function jsonBodyMiddleware(c, next) {
    if (c.req.method !== 'POST' && c.req.method !== 'PUT' && c.req.method !== 'PATCH') return next();
    const route = options.routes.match(c.req.method, c.req.path);
    if (route === undefined) return next();
    if (route.multipart) return multipartBody(c, next);
    const type = c.req.header('Content-Type');
    return limit(c, async () => {
      const text = await c.req.text();
      if (!route.takesBody && text === '') return next();
      if (text.trim() === '') throw invalidBody('the request body is empty; send a JSON object with Content-Type: application/json');
      if (!isJsonContentType(type)) {
        throw invalidBody(`send Content-Type: application/json (got ${type === undefined ? 'no Content-Type' : JSON.stringify(type)})`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw invalidBody(`the request body is not valid JSON (${(error as Error).message}); send a JSON object`);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw invalidBody(`the request body must be a JSON object (got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed})`);
      }
      checkStorable(parsed, { maxDepth: MAX_BODY_DEPTH });
      // Every valid JSON media type has passed; @hono/zod-openapi's own check is stricter than RFC 9110
      // (it refuses `application/json ;charset=utf-8` and `application/json;`), so the routes see the plain form.
      withContentType(c, 'application/json', text);
      await next();
    });
  };
}
