import type { GenerationFailure } from '../../ports/database.js';
import { ApiError, type ErrorCode } from '../errors.js';

/** What a failed generation keeps of its error: the body a caller would have got, and its Retry-After. */
export function failureOf(error: ApiError): GenerationFailure {
  return {
    error: error.message,
    code: error.code,
    ...(error.details === undefined ? {} : { details: error.details }),
    ...(error.retryAfterSeconds === undefined ? {} : { retry_after: error.retryAfterSeconds }),
  };
}

/** The error again, for a caller who waited: the same code (so the same status), body and Retry-After. */
export function errorOf(failure: GenerationFailure): ApiError {
  const details = failure.details as ApiError['details'];
  return new ApiError(failure.code as ErrorCode, failure.error, details, failure.retry_after === undefined ? {} : { retryAfterSeconds: failure.retry_after });
}

export const CANCELLED_BY_CALLER: GenerationFailure = {
  error: 'Generation cancelled',
  code: 'GENERATION_CANCELLED',
  details: { message: 'the generation was cancelled before it finished (POST /api/generations/{id}/cancel)' },
};

export const DEADLINE_PASSED: GenerationFailure = {
  error: 'Generation cancelled',
  code: 'GENERATION_CANCELLED',
  details: {
    message: 'the generation was still queued when its deadline_seconds passed, so it was cancelled without calling the provider or charging anything',
  },
};
