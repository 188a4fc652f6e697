import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { imageRow } from '../../test-support/image-rows.js';
import { createSqliteDatabase } from './sqlite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite's synchronous read of the gallery counter", () => {
  it('never sees a transaction that is still open: a list waits for it and shows what was committed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-committed-read-'));
    dirs.push(dir);
    const db = createSqliteDatabase(path.join(dir, 'imagegate.sqlite'));
    await db.migrate();
    await db.images.insert(imageRow('img_1'));
    const firstPage = { limit: 20, offset: 0 };
    expect((await db.images.listLive('alice', firstPage)).total).toBe(1);

    let updated!: () => void;
    const counterChanged = new Promise<void>((resolve) => (updated = resolve));
    let rollBack!: () => void;
    const gate = new Promise<void>((resolve) => (rollBack = resolve));
    const transaction = db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('image_counters').set({ live_images: 99, version: 99 }).where('user_id', '=', 'alice').execute();
        updated();
        await gate;
        throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    await counterChanged;

    // Read while the transaction holds the uncommitted counter: it must not answer from it.
    const during = db.images.listLive('alice', firstPage);
    rollBack();
    expect(await transaction).toBeInstanceOf(Error);
    expect((await during).total).toBe(1);
    expect((await db.images.listLive('alice', firstPage)).total).toBe(1);
    await db.close();
  });
});
