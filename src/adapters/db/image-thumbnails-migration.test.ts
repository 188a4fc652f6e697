import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../blob/memory-blob-store.js';
import { toImageRecord } from '../../domain/images/image-record.js';
import { skipWithout } from '../../test-support/services.js';
import { migrationTestOpeners, type OpenedForMigration } from '../../test-support/migration-openers.js';
import { createKyselyUnitOfWork } from './unit-of-work.js';
import { createImageRepository } from './images-repository.js';
import { migrationProvider } from './migrations/index.js';

const skipPostgres = await skipWithout('postgres');

function found<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('the image was not found');
  return row;
}
const blobs = createMemoryBlobStore('http://localhost:8787/files');

const openers = migrationTestOpeners(skipPostgres);

describe.each(openers)('migration 013 on %s', (dialect, skip, open) => {
  let opened: OpenedForMigration | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it.skipIf(skip)('leaves images stored before it without thumbnails (null in the record), and records them after it', async () => {
    opened = await open();
    const { db } = opened;
    const migrator = new Migrator({ db, provider: migrationProvider(dialect), migrationTableSchema: opened.migrationTableSchema });
    expect((await migrator.migrateTo('012-job-headers')).error).toBeUndefined();
    await sql`insert into images (id, user_id, prompt, model, r2_key, width, height, cost, created_at, parameters)
      values ('img_before', 'alice', 'a fox', 'local/procedural', 'generated/img_before.png', 64, 64, 0, '2026-11-01T00:00:00.000Z', '{}')`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const images = createImageRepository(db, dialect, createKyselyUnitOfWork(db));
    const before = found(await images.findLive('alice', 'img_before'));
    expect(before.has_thumbnails).toBe(false);
    expect(toImageRecord(before, blobs).thumbnails).toBeNull();

    await images.insert({ ...before, id: 'img_after', r2_key: 'generated/img_after.png', has_thumbnails: true });
    expect(toImageRecord(found(await images.findLive('alice', 'img_after')), blobs).thumbnails).toEqual({
      small: 'http://localhost:8787/files/thumbnails/img_after-256.webp',
      medium: 'http://localhost:8787/files/thumbnails/img_after-768.webp',
    });
  });
});
