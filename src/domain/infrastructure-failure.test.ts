import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { DependencyUnavailable, markTransient } from '../ports/dependency-unavailable.js';
import { looksLikeInfrastructure } from './infrastructure-failure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** What the drivers' errors become is each adapter's (their tests: postgres-errors, sqlite-errors, redis-errors). */
describe('looksLikeInfrastructure', () => {
  it.each([
    ['a blob store write that failed', new DependencyUnavailable('storage', 'could not store the image: socket hang up')],
    ['the database adapter saying it is away', new DependencyUnavailable('database', 'the database is unavailable (ECONNREFUSED)')],
    ['a driver error its adapter marked transient (a deadlock a rerun resolves)', markTransient(withCode('deadlock detected', '40P01'))],
    ['a 503 naming the dependency', new ApiError('SERVICE_UNAVAILABLE', 'Service temporarily unavailable', { dependency: 'database' })],
    ['an outage wrapped as a cause', new Error('query failed', { cause: markTransient(withCode('read ECONNRESET', 'ECONNRESET')) })],
    ['one of several errors', new AggregateError([new TypeError('x'), new DependencyUnavailable('redis', 'Redis is unavailable')])],
  ])('is true for %s', (_what, error) => {
    expect(looksLikeInfrastructure(error)).toBe(true);
  });

  it.each([
    ['a refusal', new ApiError('GENERATION_REFUSED', 'Image generation refused', { message: 'content policy' })],
    ['a provider that is down (its own 503, no dependency)', new ApiError('SERVICE_UNAVAILABLE', 'Image provider temporarily unavailable', { model: 'x' })],
    ['a budget', new ApiError('BUDGET_EXCEEDED', 'Budget exceeded')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint violation (23505)', withCode('duplicate key value violates unique constraint', '23505')],
    ['a driver error no adapter classified, whatever its code says', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a thrown string', 'boom'],
  ])('is false for %s', (_what, error) => {
    expect(looksLikeInfrastructure(error)).toBe(false);
  });
});
