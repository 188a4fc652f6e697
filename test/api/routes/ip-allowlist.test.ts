import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config.js';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeAll(async () => {
  const config = loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: ' 203.0.113.7 , 2001:DB8::1,198.51.100.2' });
  h = await createHarness({ config });
});
afterAll(async () => {
  await h.close();
});

const from = (ip: string | undefined, path = '/api/images', init: RequestInit = {}) =>
  h.app.request(path, { ...init, headers: { ...(ip === undefined ? {} : { 'CF-Connecting-IP': ip }), ...(init.headers as Record<string, string>) } });

async function expectForbidden(res: Response): Promise<void> {
  expect(res.status).toBe(403);
  expect(await res.text()).toBe('Forbidden');
  expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
  expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
  expect(res.headers.get('Access-Control-Allow-Headers')).toBe('Content-Type, Idempotency-Key');
}

describe('IP allow-list mode', () => {
  it('lets a listed address in, acting as default_user, with no key', async () => {
    const res = await from('203.0.113.7', '/api/generate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a windmill', model: 'local/procedural', width: 64, height: 64 }),
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ user_id: 'default_user', width: 64, height: 64, cost: 0, is_deleted: false });
  });

  it('answers a short prompt with the spec body `Invalid prompt` exactly', async () => {
    const res = await from('203.0.113.7', '/api/generate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'ab', model: 'local/procedural' }),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: 'Invalid prompt',
      details: { field: 'prompt', message: 'prompt must be at least 3 characters' },
      code: 'INVALID_PARAMETER',
    });
  });

  it('has no key management routes', async () => {
    expect((await from('203.0.113.7', '/api/keys')).status).toBe(404);
  });

  it('refuses a request without the client address header with plain-text Forbidden', async () => {
    await expectForbidden(await from(undefined));
  });

  it('refuses an unlisted address', async () => {
    await expectForbidden(await from('203.0.113.8'));
  });

  it('never trusts X-Forwarded-For', async () => {
    await expectForbidden(await h.app.request('/api/images', { headers: { 'X-Forwarded-For': '203.0.113.7' } }));
  });

  it('compares IPv6 as addresses, not strings', async () => {
    expect((await from('2001:db8::1')).status).toBe(200);
    expect((await from('2001:0db8:0000::0001')).status).toBe(200);
    await expectForbidden(await from('2001:db8::2'));
  });

  it.each(['127.1', '203.0.113.7.', 'not-an-ip', '203.0.113.7, 1.1.1.1'])('refuses a malformed address %j', async (ip) => {
    await expectForbidden(await from(ip));
  });

  it('runs first: before routing, preflight, static files, docs and the 404', async () => {
    for (const path of ['/api/nope', '/health', '/docs', '/openapi.json', '/files/generated/x.png']) {
      await expectForbidden(await from('10.0.0.1', path));
    }
    await expectForbidden(await from('10.0.0.1', '/api/images', { method: 'OPTIONS' }));
    await expectForbidden(await from('10.0.0.1', '/api/generate', { method: 'POST', body: 'not json' }));
  });

  it('answers a listed preflight with 204', async () => {
    const res = await from('198.51.100.2', '/api/generate', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
  });

  it('never answers 401 and sends no rate-limit headers', async () => {
    const res = await from('203.0.113.7', '/api/images', { headers: { Authorization: 'Bearer wrong' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
  });

  it('reads the address from CLIENT_IP_HEADER when set', async () => {
    const custom = await createHarness({ config: loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: '192.0.2.1', CLIENT_IP_HEADER: 'X-Real-IP' }) });
    expect((await custom.app.request('/api/images', { headers: { 'X-Real-IP': '192.0.2.1' } })).status).toBe(200);
    await expectForbidden(await custom.app.request('/api/images', { headers: { 'CF-Connecting-IP': '192.0.2.1' } }));
    await custom.close();
  });
});

describe('ALLOWED_IPS at start', () => {
  it.each([undefined, '', '  ', ',', '10.0.0.1, nonsense', '10.0.0.0/8', '256.1.1.1'])('refuses to start with %j', (value) => {
    expect(() => loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: value })).toThrow(/ALLOWED_IPS/);
  });
});
