import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { as, createKeyFor } from '../keys/key-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('GET /api/me', () => {
  it('tells a read-only key what it may do, with its plan, limit, budgets and spend', async () => {
    h = await createHarness();
    const reader = await createKeyFor(h, { name: 'viewer', permissions: ['read'], daily_budget_usd: 2 });
    const res = await as(h, reader.key, 'GET', '/api/me');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await json(res)).toMatchObject({
      user_id: reader.user_id,
      auth_mode: 'api_key',
      permissions: ['read'],
      is_admin: false,
      key: {
        id: reader.id,
        name: 'viewer',
        plan: 'standard',
        rate_limit: 100,
        daily_budget_usd: 2,
        monthly_budget_usd: null,
        spend: { today_usd: 0, this_month_usd: 0 },
        revocable: false,
      },
    });
  });

  it('answers a generate-only key too, and expands manage into every permission', async () => {
    h = await createHarness();
    const writer = await createKeyFor(h, { name: 'writer', permissions: ['generate'] });
    expect((await json(await as(h, writer.key, 'GET', '/api/me'))).permissions).toEqual(['generate']);
    const manager = await createKeyFor(h, { name: 'manager', permissions: ['manage'] });
    expect((await json(await as(h, manager.key, 'GET', '/api/me'))).permissions).toEqual(['generate', 'read', 'manage']);
    const admin = await json<{ is_admin: boolean; key: { not_revocable_reason: string } }>(await h.call('GET', '/api/me'));
    expect(admin.is_admin).toBe(true);
    expect(admin.key.not_revocable_reason).toMatch(/ADMIN_API_KEY|cannot revoke itself/);
  });

  it('answers the IP allow-list mode with its one user and no key', async () => {
    h = await createHarness({ config: loadConfig({ AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: '203.0.113.7' }) });
    const res = await h.app.request('/api/me', { headers: { 'CF-Connecting-IP': '203.0.113.7' } });
    expect(await json(res)).toEqual({
      user_id: 'default_user',
      auth_mode: 'ip_allowlist',
      permissions: ['generate', 'read', 'manage'],
      is_admin: false,
      key: null,
    });
  });
});
