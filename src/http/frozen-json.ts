import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { respondWith } from './response-headers.js';
import type { AppEnv } from './app-env.js';

/**
 * JSON text of answers a verb hands out frozen (the same answer again while nothing changed: a gallery page read
 * at the same version), kept by the answer's identity: a page polled for new images is serialised once per
 * change, not once per request. Anything not frozen is serialised each time. Entries go with their answers.
 */
const texts = new WeakMap<object, string>();

function jsonTextOf(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/**
 * `c.json(value, status)`, with the same bytes, headers and response type, for a value that may be frozen; the
 * request's own headers go into the response as it is built (see response-headers.ts).
 */
export function frozenJson<T extends object, S extends ContentfulStatusCode>(
  c: Pick<Context<AppEnv>, 'get' | 'set'>,
  value: T,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  // The body is exactly JSON.stringify(value), as c.json writes it; only the type says so to the route's schema.
  return respondWith(c, jsonTextOf(value), status, 'application/json') as unknown as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
