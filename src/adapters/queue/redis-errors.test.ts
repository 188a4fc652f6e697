import { describe, expect, it } from 'vitest';
import { looksLikeInfrastructure } from '../../domain/infrastructure-failure.js';
import { translateRedisError } from './redis-errors.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('Redis errors (ioredis, through BullMQ), as the domain sees them once translated', () => {
  it.each([
    [
      'ioredis giving up on a command',
      new Error('Reached the max retries per request limit (which is 3). Refer to "maxRetriesPerRequest" option for details.'),
    ],
    ['a closed connection', new Error('Connection is closed.')],
    ['a connection that is not writable', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:6379')],
  ])('counts %s as infrastructure', (_name, error) => {
    expect(translateRedisError(error)).toBe(error);
    expect(looksLikeInfrastructure(translateRedisError(error))).toBe(true);
  });

  it('counts a command Redis refused as the work failing', () => {
    expect(looksLikeInfrastructure(translateRedisError(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')))).toBe(false);
  });
});
