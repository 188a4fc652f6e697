import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/db/postgres.js';
import { createSqliteDatabase } from '../../src/adapters/db/sqlite.js';
import type { Database } from '../../src/ports/database.js';
import { skipWithout, TEST_DATABASE_URL } from '../../src/test-support/services.js';
import { createTestSchema } from '../../src/test-support/test-schema.js';
import { image } from './database-rows.js';

interface Pair {
  /** Two processes' views of one database: each has its own page cache. */
  reader: Database;
  writer: Database;
  close(): Promise<void>;
}

const first = { limit: 10, offset: 0 };
const ids = async (db: Database, filter = {}) => (await db.images.listLive('alice', first, filter)).items.map((row) => row.id);

/** A page read again after another process wrote is the page as it is now: the gallery's version moved. */
function describeGalleryPages(name: string, openPair: () => Promise<Pair>): void {
  describe(`Repeated gallery pages: ${name}`, () => {
    let pair: Pair;
    afterEach(async () => pair.close());

    it('shows an image another process inserted, with the new total, on the next read of a page read before', async () => {
      pair = await openPair();
      const { reader, writer } = pair;
      await writer.images.insert(image({ id: 'img_1' }));
      expect(await ids(reader)).toEqual(['img_1']);
      await writer.images.insert(image({ id: 'img_2', created_at: '2026-11-02T10:00:00.000Z' }));
      const page = await reader.images.listLive('alice', first);
      expect(page.items.map((row) => row.id)).toEqual(['img_2', 'img_1']);
      expect(page.total).toBe(2);
    });

    it('hides an image another process soft-deleted or discarded, filtered pages included', async () => {
      pair = await openPair();
      const { reader, writer } = pair;
      await writer.images.insert(image({ id: 'img_1' }));
      await writer.images.insert(image({ id: 'up_1', kind: 'upload', cost: 0, created_at: '2026-11-02T10:00:00.000Z' }));
      expect(await ids(reader)).toEqual(['up_1', 'img_1']);
      expect(await ids(reader, { kind: 'upload' })).toEqual(['up_1']);
      expect(await writer.images.softDelete('alice', 'img_1', '2026-11-03T00:00:00.000Z')).toBe(true);
      expect(await ids(reader)).toEqual(['up_1']);
      expect(await writer.images.discardUpload('alice', 'up_1')).toBe(true);
      expect(await ids(reader)).toEqual([]);
      expect(await ids(reader, { kind: 'upload' })).toEqual([]);
      expect((await reader.images.listLive('alice', first)).total).toBe(0);
    });

    it('keeps one user’s pages apart from another’s: a write of bob’s leaves alice’s page as it was', async () => {
      pair = await openPair();
      const { reader, writer } = pair;
      await writer.images.insert(image({ id: 'img_1' }));
      expect(await ids(reader)).toEqual(['img_1']);
      await writer.images.insert(image({ id: 'img_b', user_id: 'bob' }));
      expect(await ids(reader)).toEqual(['img_1']);
      expect((await reader.images.listLive('bob', first)).items.map((row) => row.id)).toEqual(['img_b']);
    });

    it('answers rows no caller can change: a page handed out is frozen', async () => {
      pair = await openPair();
      await pair.writer.images.insert(image({ id: 'img_1' }));
      const [row] = (await pair.reader.images.listLive('alice', first)).items;
      expect(Object.isFrozen(row)).toBe(true);
      expect(Object.isFrozen(row?.parameters)).toBe(true);
      expect(Object.isFrozen(row?.metadata?.nested)).toBe(true);
    });
  });
}

describeGalleryPages('SQLite, two connections to one file', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-pages-')), 'test.sqlite');
  const writer = createSqliteDatabase(file);
  await writer.migrate();
  const reader = createSqliteDatabase(file);
  return { reader, writer, close: async () => void (await Promise.all([reader.close(), writer.close()])) };
});

const skip = await skipWithout('postgres');
describe.skipIf(skip)('PostgreSQL', () => {
  describeGalleryPages('PostgreSQL, two pools on one schema', async () => {
    const schema = await createTestSchema(TEST_DATABASE_URL);
    const writer = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 2, schema: schema.name });
    await writer.migrate();
    const reader = createPostgresDatabase({ url: TEST_DATABASE_URL, poolSize: 2, schema: schema.name });
    return {
      reader,
      writer,
      close: async () => {
        await Promise.all([reader.close(), writer.close()]);
        await schema.drop();
      },
    };
  });
});
