import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiError, ErrorCode } from '../../domain/errors.js';
import { statusOf } from '../error-status.js';

/** Everything under this prefix speaks OpenAI's dialect, errors included. */
export const OPENAI_PREFIX = '/v1/';

export const isOpenAiPath = (path: string): boolean => path.startsWith(OPENAI_PREFIX);

interface OpenAiErrorKind {
  type: string;
  code: string;
  /** Only where OpenAI answers with another status than imagegate's own table gives. */
  status?: ContentfulStatusCode;
}

/**
 * imagegate's error codes as OpenAI names them. OpenAI's SDKs pick their error class by status alone, so the
 * status stays the one `error-status.ts` derives, except a spent budget: OpenAI says 429 `insufficient_quota`
 * there (with `x-should-retry: false`, set below, so its SDKs do not retry what cannot succeed).
 */
const OPENAI_ERRORS = {
  INVALID_PARAMETER: { type: 'invalid_request_error', code: 'invalid_value' },
  INVALID_MODEL: { type: 'invalid_request_error', code: 'model_not_found' },
  INVALID_REQUEST_BODY: { type: 'invalid_request_error', code: 'invalid_request_body' },
  GENERATION_REFUSED: { type: 'invalid_request_error', code: 'content_policy_violation' },
  UNAUTHORIZED: { type: 'invalid_request_error', code: 'invalid_api_key' },
  FORBIDDEN: { type: 'permission_error', code: 'insufficient_permissions' },
  NOT_FOUND: { type: 'invalid_request_error', code: 'not_found' },
  METHOD_NOT_ALLOWED: { type: 'invalid_request_error', code: 'method_not_allowed' },
  CONFLICT: { type: 'invalid_request_error', code: 'conflict' },
  GENERATION_CANCELLED: { type: 'invalid_request_error', code: 'generation_cancelled' },
  IDEMPOTENCY_IN_PROGRESS: { type: 'invalid_request_error', code: 'idempotency_in_progress' },
  IDEMPOTENCY_KEY_REUSED: { type: 'invalid_request_error', code: 'idempotency_key_reused' },
  BUDGET_EXCEEDED: { type: 'insufficient_quota', code: 'insufficient_quota', status: 429 },
  PAYLOAD_TOO_LARGE: { type: 'invalid_request_error', code: 'payload_too_large' },
  RATE_LIMITED: { type: 'requests', code: 'rate_limit_exceeded' },
  INTERNAL_ERROR: { type: 'server_error', code: 'internal_error' },
  GENERATION_FAILED: { type: 'server_error', code: 'generation_failed' },
  PROVIDER_UNAVAILABLE: { type: 'server_error', code: 'provider_unavailable' },
  PROVIDER_TIMEOUT: { type: 'server_error', code: 'provider_timeout' },
  GENERATION_OUTCOME_UNKNOWN: { type: 'server_error', code: 'generation_outcome_unknown' },
  SERVICE_UNAVAILABLE: { type: 'server_error', code: 'service_unavailable' },
  GENERATION_DELAYED: { type: 'server_error', code: 'generation_delayed' },
} as const satisfies Record<ErrorCode, OpenAiErrorKind>;

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

export function openAiStatusOf(code: ErrorCode): ContentfulStatusCode {
  const kind: OpenAiErrorKind = OPENAI_ERRORS[code];
  return kind.status ?? statusOf(code);
}

/** OpenAI's `{ error: { message, type, param, code } }`: the message carries imagegate's explanation of what to send. */
export function toOpenAiBody(error: ApiError): OpenAiErrorBody {
  const kind: OpenAiErrorKind = OPENAI_ERRORS[error.code];
  const details = typeof error.details === 'object' ? error.details : undefined;
  const explanation = typeof error.details === 'string' ? error.details : typeof details?.message === 'string' ? details.message : undefined;
  const message = explanation === undefined || explanation === error.message ? error.message : `${error.message}: ${explanation}`;
  const field = typeof details?.field === 'string' ? details.field : error.code === 'INVALID_MODEL' ? 'model' : null;
  return { error: { message, type: kind.type, param: field, code: kind.code } };
}

export function renderOpenAiError(c: Context, error: ApiError, headers: Record<string, string>): Response {
  const status = openAiStatusOf(error.code);
  const all = { ...headers };
  // A status OpenAI's SDKs would retry (429) that no retry can cure.
  if (status !== statusOf(error.code)) all['x-should-retry'] = 'false';
  return c.json(toOpenAiBody(error), status, all);
}
