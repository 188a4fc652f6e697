import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { DependencyUnavailable } from '../ports/dependency-unavailable.js';
import { looksLikeInfrastructure } from './infrastructure-failure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('looksLikeInfrastructure', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection pg lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['PostgreSQL shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a deadlock a rerun resolves (40P01)', withCode('deadlock detected', '40P01')],
    ['ioredis giving up on a command', new Error('Reached the max retries per request limit (which is 3). Refer to "maxRetriesPerRequest" option for details.')],
    ['a blob store write that failed', new DependencyUnavailable('storage', 'could not store the image: socket hang up')],
    ['the database adapter saying it is away', new DependencyUnavailable('database', 'the database is unavailable (ECONNREFUSED)')],
    ['a 503 naming the dependency', new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { dependency: 'database' })],
    ['an outage wrapped as a cause', new Error('query failed', { cause: withCode('read ECONNRESET', 'ECONNRESET') })],
  ])('is true for %s', (_what, error) => {
    expect(looksLikeInfrastructure(error)).toBe(true);
  });

  it.each([
    ['a refusal', new ApiError('GENERATION_REFUSED', 'Image generation refused', { message: 'content policy' })],
    ['a provider that is down (its own 503, no dependency)', new ApiError('SERVICE_UNAVAILABLE', 'Image provider temporarily unavailable', { model: 'x' })],
    ['a budget', new ApiError('BUDGET_EXCEEDED', 'Budget exceeded')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a thrown string', 'boom'],
  ])('is false for %s', (_what, error) => {
    expect(looksLikeInfrastructure(error)).toBe(false);
  });
});
