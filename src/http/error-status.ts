import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../domain/errors.js';

/** The HTTP status of every error code, in one place: a throw names what went wrong, never a status. */
export const STATUS_BY_CODE = {
  INVALID_PARAMETER: 400,
  INVALID_MODEL: 400,
  INVALID_REQUEST_BODY: 400,
  GENERATION_REFUSED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GENERATION_CANCELLED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  BUDGET_EXCEEDED: 402,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  GENERATION_FAILED: 500,
  PROVIDER_UNAVAILABLE: 502,
  GENERATION_OUTCOME_UNKNOWN: 502,
  PROVIDER_TIMEOUT: 504,
  SERVICE_UNAVAILABLE: 503,
  GENERATION_DELAYED: 503,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

export const statusOf = (code: ErrorCode): ContentfulStatusCode => STATUS_BY_CODE[code];

/** Failures after which the provider may have billed the call: a retry could pay twice, so clients are told not to. */
export const MAY_HAVE_BEEN_CHARGED: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['GENERATION_OUTCOME_UNKNOWN', 'PROVIDER_TIMEOUT', 'GENERATION_DELAYED']);
