import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import type { ZodError } from 'zod';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from './app-env.js';

export function renderError(c: Context, error: ApiError): Response {
  return c.json(error.toBody(), error.status);
}

/** One place renders every failure as the spec's `{ error, details, code }`; a 500 never echoes internals. */
export function onError(logger: Logger, options: { describeParameterErrors?: boolean } = {}): ErrorHandler<AppEnv> {
  return function handleError(error, c) {
    if (error instanceof ApiError) {
      if (error.status >= 500) logger.error({ requestId: c.get('requestId'), err: error }, error.message);
      return renderError(c, options.describeParameterErrors === true ? describeParameter(error) : error);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return renderError(c, new ApiError(400, 'INVALID_REQUEST_BODY', 'Invalid request body', error.message));
    }
    logger.error({ requestId: c.get('requestId'), err: error }, 'unhandled error');
    return renderError(
      c,
      new ApiError(500, 'INTERNAL_ERROR', 'Internal server error', { request_id: c.get('requestId') ?? null }),
    );
  };
}

/** The key-based mode's parameter errors: `error` says what is wrong with the parameter, `details` stay. */
function describeParameter(error: ApiError): ApiError {
  const details = error.details;
  if (error.code !== 'INVALID_PARAMETER' || typeof details !== 'object' || typeof details.message !== 'string') return error;
  return new ApiError(error.status, error.code, details.message, details);
}

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  renderError(
    c,
    new ApiError(404, 'NOT_FOUND', 'Not found', { method: c.req.method, path: c.req.path, message: 'no such route; see /docs' }),
  );

interface ValidationFailure {
  error: ZodError;
  target: string;
  data?: unknown;
}

/** Zod failures as the spec's bodies: `Invalid prompt` / `Invalid model` for those fields, `Invalid <field>` otherwise. */
export function validationError({ error, target, data }: ValidationFailure): ApiError {
  const issue = error.issues[0];
  if (issue === undefined) return new ApiError(400, 'INVALID_PARAMETER', 'Invalid parameter', { message: 'invalid input' });
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0] ?? 'unknown';
    return new ApiError(400, 'INVALID_PARAMETER', `Invalid ${field}`, {
      field,
      message: `unknown parameter ${JSON.stringify(field)}`,
    });
  }
  const field = issue.path.map(String).join('.');
  if (field === '') {
    return new ApiError(400, 'INVALID_REQUEST_BODY', 'Invalid request body', `${target === 'json' ? 'body' : target}: ${issue.message}`);
  }
  const message = `${field}: ${issue.message}`;
  if (field === 'model') {
    const model = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).model : undefined;
    return new ApiError(400, 'INVALID_MODEL', 'Invalid model', { model: model ?? null, message });
  }
  return new ApiError(400, 'INVALID_PARAMETER', `Invalid ${field}`, { field, message });
}
