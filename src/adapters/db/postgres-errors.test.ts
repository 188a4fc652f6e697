import { describe, expect, it } from 'vitest';
import { looksLikeInfrastructure } from '../../domain/infrastructure-failure.js';
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

/** The database's driver is known here only: the domain decides on what this adapter made of its errors. */
describe('PostgreSQL errors, as the domain sees them once translated', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a connection pg lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a client that lost its connection', new Error('Client has encountered a connection error and is not queryable')],
    ['PostgreSQL shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['a full disk (53100)', withCode('53100', 'could not extend file')],
    ['a deadlock a rerun resolves (40P01)', withCode('40P01', 'deadlock detected')],
    ['a serialization failure a rerun resolves (40001)', withCode('40001', 'could not serialize access due to concurrent update')],
    ['an outage wrapped as a cause', new Error('query failed', { cause: withCode('ECONNRESET', 'read ECONNRESET') })],
  ])('counts %s as infrastructure', (_name, error) => {
    expect(looksLikeInfrastructure(translatePostgresError(error))).toBe(true);
  });

  it.each([
    ['a constraint violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('counts %s as the work failing', (_name, error) => {
    expect(looksLikeInfrastructure(translatePostgresError(error))).toBe(false);
  });
});
