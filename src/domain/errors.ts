import type { DependencyUnavailable } from '../ports/dependency-unavailable.js';

/**
 * The one error type the domain and the HTTP layer throw. It carries a code, never an HTTP status:
 * `src/http/error-status.ts` derives the status from the code in one table, and `onError` renders the
 * spec's body `{ error, details, code }`. Anything else becomes a 500 that never echoes internals.
 */
export type ErrorCode =
  | 'INVALID_PARAMETER'
  | 'INVALID_MODEL'
  | 'INVALID_REQUEST_BODY'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'GENERATION_FAILED'
  | 'GENERATION_REFUSED'
  | 'GENERATION_CANCELLED'
  | 'GENERATION_DELAYED'
  | 'PROVIDER_UNAVAILABLE'
  | 'PROVIDER_TIMEOUT'
  | 'GENERATION_OUTCOME_UNKNOWN'
  | 'SERVICE_UNAVAILABLE'
  | 'CONFLICT'
  | 'IDEMPOTENCY_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'BUDGET_EXCEEDED'
  | 'INTERNAL_ERROR';

export type ErrorDetails = Record<string, unknown> | string | undefined;

export class ApiError extends Error {
  override readonly name = 'ApiError';

  /** When set, the answer carries `Retry-After` with these seconds (a provider that is down, an open breaker). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    options: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    // `cause` is for the log only (a library's words behind a refusal): toBody never renders it.
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toBody(): { error: string; details?: ErrorDetails; code: ErrorCode } {
    return this.details === undefined ? { error: this.message, code: this.code } : { error: this.message, details: this.details, code: this.code };
  }
}

export const notFound = (what: string, idField: string, id: string): ApiError => new ApiError('NOT_FOUND', `${what} not found`, { [idField]: id });

export const invalidParameter = (field: string, message: string): ApiError => new ApiError('INVALID_PARAMETER', `Invalid ${field}`, { field, message });

export const invalidBody = (message: string): ApiError => new ApiError('INVALID_REQUEST_BODY', 'Invalid request body', message);

/** Seconds a caller is told to wait when a service we depend on (database, Redis, storage) does not answer. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * A dependency out of reach is not the caller's fault nor a bug: 503 with Retry-After, naming which one
 * (never its address or driver error, which go to the log).
 */
export function dependencyUnavailable(error: DependencyUnavailable): ApiError {
  const retryAfterSeconds = DEPENDENCY_RETRY_AFTER_SECONDS;
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    'Service temporarily unavailable',
    { dependency: error.dependency, message: `the ${error.dependency} does not answer right now; try again in a few seconds`, retry_after: retryAfterSeconds },
    { retryAfterSeconds },
  );
}
