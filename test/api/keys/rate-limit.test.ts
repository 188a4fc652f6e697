import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from './key-helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  h.clock.set('2026-11-20T10:00:30.000Z');
});
afterEach(async () => {
  await h.close();
});

const WINDOW_END = Date.parse('2026-11-20T10:01:00.000Z') / 1000;

describe('rate limits per key', () => {
  it('puts X-RateLimit-* on every authenticated response, errors included', async () => {
    const { key } = await createKeyFor(h, { name: 'std', permissions: ['read'] });
    const ok = await as(h, key, 'GET', '/api/images');
    expect([ok.headers.get('X-RateLimit-Limit'), ok.headers.get('X-RateLimit-Remaining'), ok.headers.get('X-RateLimit-Reset')]).toEqual([
      '100',
      '99',
      String(WINDOW_END),
    ]);
    const missing = await as(h, key, 'GET', '/api/images/img_none');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('X-RateLimit-Remaining')).toBe('98');
    const forbidden = await as(h, key, 'DELETE', '/api/images/img_none');
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('X-RateLimit-Remaining')).toBe('97');
  });

  it.each([
    ['standard', {}, 100],
    ['pro', { plan: 'pro' }, 500],
    ['enterprise', { plan: 'enterprise', rate_limit: 42 }, 42],
  ])('limits a %s key to its plan', async (_plan, extra, limit) => {
    const { key } = await createKeyFor(h, { name: 'k', permissions: ['read'], ...extra });
    expect((await as(h, key, 'GET', '/api/models')).headers.get('X-RateLimit-Limit')).toBe(String(limit));
  });

  it('answers over the limit with 429, Retry-After, Remaining 0 and the spec error body', async () => {
    const { key } = await createKeyFor(h, { name: 'tiny', permissions: ['read'], plan: 'enterprise', rate_limit: 3 });
    for (let i = 0; i < 3; i += 1) expect((await as(h, key, 'GET', '/api/models')).status).toBe(200);
    const res = await as(h, key, 'GET', '/api/models');
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('30');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(res.headers.get('X-RateLimit-Reset')).toBe(String(WINDOW_END));
    expect(await json(res)).toMatchObject({ error: 'Rate limit exceeded', code: 'RATE_LIMITED', details: { limit: 3, reset: WINDOW_END } });
  });

  it('is exact under concurrency: 150 simultaneous requests on a standard key give exactly 100 successes', async () => {
    const { key } = await createKeyFor(h, { name: 'std', permissions: ['read'] });
    const statuses = await Promise.all(Array.from({ length: 150 }, () => as(h, key, 'GET', '/api/images').then((res) => res.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
  });

  it('resets at the end of the wall-clock minute', async () => {
    const { key } = await createKeyFor(h, { name: 'tiny', permissions: ['read'], plan: 'enterprise', rate_limit: 2 });
    await as(h, key, 'GET', '/api/models');
    await as(h, key, 'GET', '/api/models');
    h.clock.set('2026-11-20T10:00:59.999Z');
    expect((await as(h, key, 'GET', '/api/models')).status).toBe(429);
    h.clock.set('2026-11-20T10:01:00.000Z');
    const fresh = await as(h, key, 'GET', '/api/models');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('X-RateLimit-Remaining')).toBe('1');
    expect(fresh.headers.get('X-RateLimit-Reset')).toBe(String(WINDOW_END + 60));
  });

  it('counts each key separately', async () => {
    const a = await createKeyFor(h, { name: 'a', permissions: ['read'], plan: 'enterprise', rate_limit: 1 });
    const b = await createKeyFor(h, { name: 'b', permissions: ['read'], plan: 'enterprise', rate_limit: 1 });
    expect((await as(h, a.key, 'GET', '/api/models')).status).toBe(200);
    expect((await as(h, a.key, 'GET', '/api/models')).status).toBe(429);
    expect((await as(h, b.key, 'GET', '/api/models')).status).toBe(200);
  });
});
