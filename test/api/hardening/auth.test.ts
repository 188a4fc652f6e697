import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAILED_AUTH_PER_MINUTE } from '../../../src/app.js';
import { ENV_ADMIN_KEY_ID } from '../../../src/domain/keys/bootstrap-admin-key.js';
import { createHarness, json, TEST_CLIENT_ADDRESS_HEADER, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from '../keys/key-helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const from = (address: string, authorization?: string) =>
  h.app.request('/api/images', {
    headers: { [TEST_CLIENT_ADDRESS_HEADER]: address, ...(authorization === undefined ? {} : { Authorization: authorization }) },
  });

describe('failed authentication is limited per client address', () => {
  it(`answers 401 to the first ${FAILED_AUTH_PER_MINUTE} wrong keys of a minute, then 429 with Retry-After`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 5; i++) statuses.push((await from('203.0.113.7', `Bearer igk_guess_${i}`)).status);
    expect(statuses.slice(0, FAILED_AUTH_PER_MINUTE).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(FAILED_AUTH_PER_MINUTE).every((status) => status === 429)).toBe(true);

    const limited = await from('203.0.113.7');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await json(limited)).toMatchObject({ code: 'RATE_LIMITED', error: 'Too many failed authentications' });
  });

  it('never touches a valid key, even from the limited address, nor other addresses', async () => {
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 1; i++) await from('203.0.113.7', 'Bearer nope');
    const valid = await from('203.0.113.7', `Bearer ${TEST_KEY}`);
    expect(valid.status).toBe(200);
    expect(valid.headers.get('X-RateLimit-Remaining')).toBe(String(Number(valid.headers.get('X-RateLimit-Limit')) - 1));
    expect((await from('198.51.100.1', 'Bearer nope')).status).toBe(401);
  });

  it('counts afresh in the next minute', async () => {
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 1; i++) await from('203.0.113.7', 'Bearer nope');
    h.clock.advance(60_000);
    expect((await from('203.0.113.7', 'Bearer nope')).status).toBe(401);
  });
});

describe('revocations that would lock the operator out', () => {
  it('refuses a key revoking itself with 409, and the key keeps working', async () => {
    const key = await createKeyFor(h, { name: 'self' });
    const res = await as(h, key.key, 'DELETE', `/api/keys/${key.id}`);
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ code: 'CONFLICT', details: { message: expect.stringContaining('cannot revoke itself') } });
    expect((await as(h, key.key, 'GET', '/api/images')).status).toBe(200);
  });

  it('refuses revoking the ADMIN_API_KEY key with 409, naming the setting', async () => {
    const other = await createKeyFor(h, { name: 'ops' });
    const res = await as(h, other.key, 'DELETE', `/api/keys/${ENV_ADMIN_KEY_ID}`);
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ code: 'CONFLICT', details: { message: expect.stringContaining('ADMIN_API_KEY') } });
    expect((await h.call('GET', '/api/images')).status).toBe(200);
  });

  it('still lets one key revoke another', async () => {
    const victim = await createKeyFor(h, { name: 'old' });
    expect((await h.call('DELETE', `/api/keys/${victim.id}`)).status).toBe(200);
    expect((await as(h, victim.key, 'GET', '/api/images')).status).toBe(401);
  });
});
