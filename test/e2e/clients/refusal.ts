import { BadRequestError } from 'openai';
import { expect } from 'vitest';

/** The OpenAI SDK's error for a 400 in OpenAI's shape; fails the test for anything else. */
export async function refusal(promise: Promise<unknown>): Promise<BadRequestError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BadRequestError)) throw new Error(`expected a BadRequestError, got ${String(error)}`);
  expect(error.type).toBe('invalid_request_error');
  return error;
}
