import { describe, expect, it } from 'vitest';
import type { Logger } from '../../ports/logger.js';
import { burstWarning } from './burst-warning.js';

describe('burstWarning', () => {
  it('writes the first error of a burst at warn, counts the rest, and says how many with the next one written', () => {
    const lines: unknown[] = [];
    const logger = { warn: (fields: object) => lines.push(fields) } as unknown as Logger;
    let now = 0;
    const warn = burstWarning(logger, 'connection failed', 1_000, () => now);
    for (let i = 0; i < 50; i += 1) warn(new Error('Connection terminated unexpectedly'));
    expect(lines).toEqual([{ err: 'Connection terminated unexpectedly' }]);
    now = 1_500;
    warn('ECONNREFUSED');
    expect(lines).toEqual([{ err: 'Connection terminated unexpectedly' }, { err: 'ECONNREFUSED', alsoSince: 49 }]);
  });
});
