import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { warmHttpClient } from './warm-http-client.js';

/** A debug-level logger whose lines (message and fields) are kept for the test to read. */
const logger = () => {
  const lines: { fields: Record<string, unknown>; message: string }[] = [];
  const log = pino(
    { level: 'debug', base: undefined, timestamp: false },
    {
      write: (line: string) => {
        const { msg, level: _level, ...fields } = JSON.parse(line) as { msg: string; level: number } & Record<string, unknown>;
        lines.push({ fields, message: msg });
      },
    },
  );
  return Object.assign(log, { lines });
};

describe('warmHttpClient', () => {
  it('makes one JSON POST through fetch to a server on loopback, and says how long it took', async () => {
    const log = logger();
    const seen: string[] = [];
    const spy: typeof fetch = async (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    };
    await warmHttpClient(log, spy);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/warm$/);
    expect(log.lines).toEqual([{ fields: { ms: expect.any(Number) }, message: 'HTTP client warmed up' }]);
  });

  it('never fails the start: a fetch that throws is logged and skipped', async () => {
    const log = logger();
    await expect(warmHttpClient(log, async () => Promise.reject(new Error('no network here')))).resolves.toBeUndefined();
    expect(log.lines).toEqual([{ fields: { err: 'no network here' }, message: 'HTTP client warm-up skipped' }]);
  });
});
