import { IDEMPOTENT_EXTENSION, PERMISSIONS_EXTENSION } from './route-table.js';

/**
 * The answers the middleware gives, added to every operation it stands in front of, so /openapi.json declares
 * every status an operation can answer (test/api/openapi/api-walk.test.ts checks it against the server). They are
 * derived from the same declarations the middleware reads (`x-permissions`, `x-idempotent`, a request body, the
 * /api and /v1 prefixes: see createApp), never listed per route, so a new route cannot forget them. What a route's
 * own code can answer (404 for an unknown id, 409 for a conflict, 502 from a provider) stays declared beside it.
 */

interface Response {
  description: string;
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, unknown>;
}

interface Operation {
  responses?: Record<string, Response>;
  requestBody?: unknown;
  [PERMISSIONS_EXTENSION]?: unknown;
  [IDEMPOTENT_EXTENSION]?: unknown;
}

export interface OpenApiDocument {
  paths?: Record<string, object>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

const header = (description: string) => ({ description, schema: { type: 'string' } });

const FORBIDDEN_TEXT = { 'text/plain': { schema: { type: 'string', enum: ['Forbidden'] } } };

/** The middleware's answers: the status, why, and the headers it sets. */
const MIDDLEWARE = {
  400: 'A path or query parameter that is not valid text, or a malformed Idempotency-Key (INVALID_PARAMETER)',
  401: 'Missing or invalid API key (UNAUTHORIZED)',
  403: 'The key lacks the permission (FORBIDDEN)',
  404: 'A path with a NUL character (NOT_FOUND)',
  409: 'The same Idempotency-Key while its first request runs (IDEMPOTENCY_IN_PROGRESS)',
  413: 'Request body too large (PAYLOAD_TOO_LARGE)',
  422: 'The same Idempotency-Key with another request (IDEMPOTENCY_KEY_REUSED)',
  429: "Over the key's rate limit, or too many failed authentications from the address (RATE_LIMITED)",
  500: 'Internal server error (INTERNAL_ERROR)',
  503: 'The database, Redis or storage is unreachable (SERVICE_UNAVAILABLE); retry after Retry-After',
} as const;

const HEADERS: Partial<Record<keyof typeof MIDDLEWARE, Record<string, unknown>>> = {
  401: { 'WWW-Authenticate': header('Bearer') },
  409: { 'Retry-After': header('Seconds to wait') },
  429: { 'Retry-After': header('Seconds to wait') },
  503: { 'Retry-After': header('Seconds to wait') },
};

/** Adds the middleware's answers to a document @hono/zod-openapi made (a new object; the input is not changed). */
export function withMiddlewareResponses<T extends OpenApiDocument>(doc: T, options: { keyAuth: boolean }): T {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const api = path.startsWith('/api/') || path.startsWith('/v1/');
    const errorSchema = { $ref: path.startsWith('/v1/') ? '#/components/schemas/OpenAiError' : '#/components/schemas/Error' };
    paths[path] = Object.fromEntries(
      Object.entries(item as Record<string, unknown>).map(([method, value]) => {
        if (!METHODS.has(method) || typeof value !== 'object' || value === null) return [method, value];
        const operation = value as Operation;
        const responses: Record<string, Response> = { ...(operation.responses ?? {}) };
        const add = (status: keyof typeof MIDDLEWARE) => {
          if (responses[status] !== undefined) return;
          const headers = HEADERS[status];
          responses[status] = {
            description: MIDDLEWARE[status],
            content: { 'application/json': { schema: errorSchema } },
            ...(headers === undefined ? {} : { headers }),
          };
        };
        if (api) {
          for (const status of [400, 404, 500, 503] as const) add(status);
          if (options.keyAuth && operation[PERMISSIONS_EXTENSION] !== undefined) for (const status of [401, 403, 429] as const) add(status);
          if (operation.requestBody !== undefined) add(413);
          if (operation[IDEMPOTENT_EXTENSION] === true) for (const status of [409, 422] as const) add(status);
        }
        // The allow-list answers every request from elsewhere, before anything else, in plain text.
        if (!options.keyAuth) {
          const own = responses[403];
          responses[403] = {
            description:
              own === undefined
                ? 'The address is not on the allow-list (plain text)'
                : `${own.description}; or the address is not on the allow-list (plain text)`,
            content: { ...(own?.content ?? {}), ...FORBIDDEN_TEXT },
          };
        }
        return [method, { ...operation, responses: sortedByStatus(responses) }];
      }),
    );
  }
  return { ...doc, paths };
}

const sortedByStatus = (responses: Record<string, Response>): Record<string, Response> =>
  Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
