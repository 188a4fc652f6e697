import { describe, expect, it } from 'vitest';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import { isPostgresUnavailable, translatePostgresError } from './postgres-errors.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('PostgreSQL errors', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['a connection pg saw end', new Error('Connection terminated unexpectedly')],
    ['no pooled client in time', new Error('timeout exceeded when trying to connect')],
    ['a silent connection', new Error('Query read timeout')],
    ['an administrator shutdown', withCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up', withCode('57P03')],
    ['too many connections', withCode('53300')],
    ['a connection exception', withCode('08006')],
    ['a statement over statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
  ])('counts %s as the database being unavailable', (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(true);
    const translated = translatePostgresError(error);
    expect(translated).toBeInstanceOf(DependencyUnavailable);
    expect(translated).toMatchObject({ dependency: 'database', cause: error });
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a serialization failure', withCode('40001')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('leaves %s as it is', (_name, error) => {
    expect(isPostgresUnavailable(error)).toBe(false);
    expect(translatePostgresError(error)).toBe(error);
  });
});
