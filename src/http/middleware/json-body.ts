import type { Context, MiddlewareHandler, Next } from 'hono';
import { MAX_UPLOAD_BYTES } from '../../domain/inputs/input-limits.js';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, invalidBody } from '../../domain/errors.js';
import { renderError } from '../errors.js';
import { checkStorable, MAX_BODY_DEPTH } from '../../domain/json-shape.js';
import type { RouteTable } from '../route-table.js';
import type { AppEnv } from '../app-env.js';
import { gateKey, type FairGate } from '../../domain/inputs/fair-gate.js';
import type { UploadStaging } from '../../ports/upload-staging.js';
import { readMultipartForm, type ReceivedForm } from '../multipart/read-form.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The test Hono's JSON validator applies: the media type before any `;`, any case, `+json` suffixes included. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const isJsonContentType = (header: string | undefined): boolean => header !== undefined && JSON_MEDIA_TYPE.test((header.split(';')[0] ?? '').trim());

export interface JsonBodyOptions {
  routes: RouteTable;
  maxBytes?: number;
  /** Where multipart files go as they arrive, and whose turn it is to send one. */
  uploads: { staging: UploadStaging; gate: FairGate };
}

/** Multipart bodies carry files of up to MAX_UPLOAD_BYTES each, plus their form fields. */
export const MAX_MULTIPART_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024;

const multipartTooLarge = (): ApiError =>
  new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', {
    max_bytes: MAX_UPLOAD_BYTES,
    message: `files are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB (a multipart request to ${MAX_MULTIPART_BYTES} bytes in all): send a smaller image`,
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
    c.req.raw =
      readText === undefined ? new Request(raw, { headers }) : new Request(raw.url, { method: raw.method, headers, body: readText, signal: raw.signal });
  }
}

/** `multipart/form-data` with a boundary parameter (quoted or not), in any case and with any spaces. */
const MULTIPART = /^\s*multipart\/form-data\s*;(?:.*;)?\s*boundary\s*=\s*"?([^";\s]+)"?/i;

/**
 * Multipart routes take files: the form is read here as it streams in, files staged (on disk on Node) and hashed on
 * the way, then given to the route's validator as the form it would have parsed itself, and to Idempotency-Key's
 * fingerprint; staged files are removed when the request is over. A key sends a few forms at once and the others
 * wait their turn (round robin over keys); a body announced too large is refused before a byte of it is read.
 */
async function multipartBody(c: Context<AppEnv>, next: Next, uploads: JsonBodyOptions['uploads']): Promise<Response | void> {
  const type = c.req.header('Content-Type');
  const boundary = type === undefined ? undefined : MULTIPART.exec(type)?.[1];
  if (boundary === undefined) {
    throw invalidBody(
      `send the image as multipart/form-data with its boundary (as curl -F or a FormData does; got ${type === undefined ? 'no Content-Type' : JSON.stringify(type)})`,
    );
  }
  // Any valid spelling (RFC 9110: spaces around `;`, any case, a quoted boundary) reaches the route in the plain
  // form, which is the only one @hono/zod-openapi's own check lets through.
  withContentType(c, `multipart/form-data; boundary=${boundary}`);
  // The rest of the body is never read, so the connection cannot carry another request: say so.
  const refuse = (error: ApiError) => renderError(c, error, { Connection: 'close' });
  const length = Number(c.req.header('Content-Length') ?? '0');
  if (length > MAX_MULTIPART_BYTES) return refuse(multipartTooLarge());
  const key = gateKey(c.get('principal'));
  const signal = c.req.raw.signal;
  let received: ReceivedForm;
  await uploads.gate.acquire(key, signal);
  try {
    received = await readMultipartForm(c.req.raw.body, { boundary, staging: uploads.staging, maxBytes: MAX_MULTIPART_BYTES, tooLarge: multipartTooLarge });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'PAYLOAD_TOO_LARGE') return refuse(error);
    throw error;
  } finally {
    uploads.gate.release(key);
  }
  try {
    // Hono's validator (and c.req.formData) read the form from here rather than parsing the body again.
    (c.req.bodyCache as Record<string, unknown>).formData = Promise.resolve(received.form);
    c.set('multipartForm', received);
    await next();
  } finally {
    await received.discard();
  }
}

/**
 * POST, PUT and PATCH bodies: JSON only, at most 1 MiB, parsed and checked once here so every route sees the same
 * rules. An operation that declares no body (`POST .../cancel`) accepts an empty body whatever its headers.
 * A body sent too slowly is cut off before it gets here, by the server's request deadline (408, in
 * src/runtimes/node/entry/server-limits.ts): that covers every route and the headers too, and a runtime-neutral timer here
 * could not free the socket.
 */
export function jsonBody(options: JsonBodyOptions): MiddlewareHandler<AppEnv> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const limit = bodyLimit({
    maxSize: maxBytes,
    // The rest of the body is never read, so the connection cannot carry another request: say so.
    onError: (c) =>
      renderError(
        c,
        new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', { max_bytes: maxBytes, message: `JSON bodies are limited to ${maxBytes} bytes` }),
        {
          Connection: 'close',
        },
      ),
  });

  return async function jsonBodyMiddleware(c, next) {
    if (c.req.method !== 'POST' && c.req.method !== 'PUT' && c.req.method !== 'PATCH') return next();
    const route = options.routes.match(c.req.method, c.req.path);
    if (route === undefined) return next();
    if (route.multipart) return multipartBody(c, next, options.uploads);
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
