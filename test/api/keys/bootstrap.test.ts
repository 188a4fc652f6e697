import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../../src/adapters/db/sqlite.js';
import { bootstrapAdminKey, ENV_ADMIN_KEY_ID } from '../../../src/domain/keys/bootstrap-admin-key.js';
import { createKeyAuthenticator } from '../../../src/domain/keys/authenticate.js';
import type { Database } from '../../../src/ports/database.js';
import { createIdGenerator } from '../../../src/ports/ids.js';
import { pino } from 'pino';

let db: Database;
const clock = { now: () => new Date('2026-11-20T10:00:00.000Z') };
const deps = () => ({ db, clock, ids: createIdGenerator(), logger: pino({ level: 'silent' }) });

beforeEach(async () => {
  db = createSqliteDatabase(':memory:');
  await db.migrate();
});
afterEach(async () => {
  await db.close();
});

describe('admin key bootstrap', () => {
  it('makes ADMIN_API_KEY the admin key, idempotently across restarts', async () => {
    expect(await bootstrapAdminKey(deps(), 'first-secret')).toEqual({ kind: 'env', keyId: ENV_ADMIN_KEY_ID });
    await bootstrapAdminKey(deps(), 'first-secret');
    const principal = await createKeyAuthenticator(deps()).authenticate('first-secret');
    expect(principal).toMatchObject({ userId: 'admin', isAdmin: true });
    expect([...(principal?.permissions ?? [])].sort()).toEqual(['generate', 'manage', 'read']);
    expect((await db.apiKeys.list(undefined, { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('replaces the admin key when ADMIN_API_KEY changes', async () => {
    await bootstrapAdminKey(deps(), 'first-secret');
    await bootstrapAdminKey(deps(), 'second-secret');
    const auth = createKeyAuthenticator(deps());
    expect(await auth.authenticate('first-secret')).toBeUndefined();
    expect(await auth.authenticate('second-secret')).toBeDefined();
  });

  it('creates one admin key on a first start without ADMIN_API_KEY, and none after', async () => {
    const first = await bootstrapAdminKey(deps(), undefined);
    expect(first.kind).toBe('generated');
    const secret = first.kind === 'generated' ? first.secret : '';
    expect(secret).toMatch(/^igk_live_/);
    expect(await createKeyAuthenticator(deps()).authenticate(secret)).toMatchObject({ isAdmin: true });
    expect(await bootstrapAdminKey(deps(), undefined)).toEqual({ kind: 'existing' });
  });

  it('revokes the env-defined key once ADMIN_API_KEY is removed', async () => {
    await bootstrapAdminKey(deps(), 'old-secret');
    const result = await bootstrapAdminKey(deps(), undefined);
    expect(result.kind).toBe('generated');
    expect(await createKeyAuthenticator(deps()).authenticate('old-secret')).toBeUndefined();
  });
});
