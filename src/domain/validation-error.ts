import type { ZodError } from 'zod';
import { cutText } from './cut-text.js';
import { ApiError, invalidBody } from './errors.js';
import { describeIssue, fieldName } from './validation-messages.js';

interface ValidationFailure {
  error: ZodError;
  target: string;
  data?: unknown;
}

/** Zod failures as the spec's bodies: `Invalid prompt` / `Invalid model` for those fields, `Invalid <field>` otherwise. */
export function validationError({ error, target, data }: ValidationFailure): ApiError {
  const issue = error.issues[0];
  if (issue === undefined) return new ApiError('INVALID_PARAMETER', 'Invalid parameter', { message: 'invalid input' });
  if (issue.code === 'unrecognized_keys') {
    const field = issue.keys[0] ?? 'unknown';
    return new ApiError('INVALID_PARAMETER', `Invalid ${field}`, {
      field,
      message: `${field} is not a parameter of this endpoint; remove it (see /docs for the accepted fields)`,
    });
  }
  const field = fieldName(issue.path);
  if (field === '') {
    const what = target === 'json' ? 'the request body' : target === 'query' ? 'the query string' : target;
    return invalidBody(describeIssue(what, issue.message));
  }
  const message = describeIssue(field, issue.message);
  if (field === 'model') {
    const model = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).model : undefined;
    // Echo the model only when it is a plausible id: a hostile value (an object nested 5,000 deep) is never sent back.
    return new ApiError('INVALID_MODEL', 'Invalid model', { model: typeof model === 'string' ? cutText(model, 200) : null, message });
  }
  return new ApiError('INVALID_PARAMETER', `Invalid ${field}`, { field, message });
}
