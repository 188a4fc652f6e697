import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKeyRow } from '../../ports/database.js';
import { createSqliteDatabase } from './sqlite.js';
import { walSyncer } from './sqlite-durable-writes.js';

const open: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

const AT = '2026-11-27T09:00:00.000Z';
const KEY: ApiKeyRow = {
  id: 'key_a',
  user_id: 'alice',
  name: 'a key with a budget',
  prefix: 'igk_abcd',
  hash: 'hash-a',
  permissions: ['generate'],
  plan: 'standard',
  rate_limit: null,
  is_admin: false,
  created_at: AT,
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
};

describe("SQLite's ledger writes", () => {
  it("through the repository: sync a reservation and a journal naming the provider's job; not a stored answer's journal or a settlement", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    let syncs = 0;
    const db = createSqliteDatabase(file, { syncWal: () => Promise.resolve(void (syncs += 1)) });
    await db.migrate();
    const synced = async (write: () => Promise<unknown>): Promise<number> => {
      const before = syncs;
      await write();
      return syncs - before;
    };
    const charge = { id: 'chg_1', user_id: 'alice', key_id: null, image_id: 'img_1', model: 'replicate/m', provider: 'replicate' } as const;
    const row = { ...charge, provider_job_id: null, journal: null, estimated_usd: 0.25, cost_usd: 0.25, outcome: 'reserved', error: null } as const;
    const at = AT;
    expect(await synced(() => db.charges.reserve({ ...row, created_at: at, settled_at: null }, []))).toBe(1);
    expect(await synced(() => db.charges.recordJournal('chg_1', { job: { id: 'pred_1' } }))).toBe(1);
    expect(await synced(() => db.charges.reserve({ ...row, id: 'chg_2', image_id: 'img_2', created_at: at, settled_at: null }, []))).toBe(1);
    expect(
      await synced(() =>
        db.charges.recordJournal('chg_2', { stored: { key: 'generated/img_2.png', width: 64, height: 64, cost_usd: 0.25, has_thumbnails: false } }),
      ),
    ).toBe(0);
    expect(await synced(() => db.charges.settle({ id: 'chg_2', outcome: 'succeeded', cost_usd: 0.25, error: null, at }))).toBe(0);
    expect((await db.charges.latestForImage('alice', 'img_1'))?.provider_job_id).toBe('pred_1');
    await db.close();
  });

  it('sync nothing for a reservation a budget refused', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    let syncs = 0;
    const db = createSqliteDatabase(file, { syncWal: () => Promise.resolve(void (syncs += 1)) });
    await db.migrate();
    await db.apiKeys.insert({ ...KEY, daily_budget_usd: 0.1 });
    const row = { id: 'chg_1', user_id: 'alice', key_id: KEY.id, image_id: 'img_1', model: 'replicate/m', provider: 'replicate' } as const;
    const refused = await db.charges.reserve(
      { ...row, provider_job_id: null, journal: null, estimated_usd: 0.25, cost_usd: 0.25, outcome: 'reserved', error: null, created_at: AT, settled_at: null },
      [{ key_id: KEY.id, budget: 'daily', limit_usd: 0.1, since: '2026-11-27T00:00:00.000Z' }],
    );
    expect(refused.reserved).toBe(false);
    expect(syncs).toBe(0);
    await db.close();
  });

  it('share a sync among callers that ask while one is under way, and start a new one for them after it', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    fs.writeFileSync(`${file}-wal`, '');
    const finishes: (() => void)[] = [];
    const sync = walSyncer(file, () => new Promise<void>((resolve) => finishes.push(resolve)));
    const first = sync();
    const [second, third] = [sync(), sync()];
    expect(finishes).toHaveLength(1);
    finishes[0]?.();
    await first;
    // The first sync may have started before their commits: one more, for both.
    await new Promise((resolve) => setImmediate(resolve));
    expect(finishes).toHaveLength(2);
    finishes[1]?.();
    await Promise.all([second, third]);
    expect(finishes).toHaveLength(2);
  });

  it('sync a real WAL file with fdatasync, off the event loop', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    fs.writeFileSync(`${file}-wal`, 'x');
    await expect(walSyncer(file)()).resolves.toBeUndefined();
  });

  it('keep the database in WAL mode, so the CLI reads while the server writes', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-durable-')), 'db.sqlite');
    const db = createSqliteDatabase(file);
    await db.migrate();
    const reader = new BetterSqlite3(file, { readonly: true });
    open.push(reader);
    expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
    await db.close();
  });
});
