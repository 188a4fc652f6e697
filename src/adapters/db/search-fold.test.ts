import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createKyselyUnitOfWork } from './unit-of-work.js';
import { createImageRepository } from './images-repository.js';
import { migrationProvider } from './migrations/index.js';
import type { DatabaseSchema } from './schema.js';
import { foldForSearch } from './search-fold.js';

describe('foldForSearch', () => {
  it("lowercases each character on its own, as PostgreSQL's lower() does", () => {
    expect(foldForSearch('ÉLAN Straße STRASSE ẞ')).toBe('élan straße strasse ß');
    expect(foldForSearch('ΟΔΟΣ λόγος')).toBe('οδοσ λόγος'); // no final-sigma rule: Σ is always σ
    expect(foldForSearch('ПРИВЕТ İstanbul')).toBe('привет istanbul'); // İ is one character, i, not i + a dot
    expect(foldForSearch('Élan')).not.toBe(foldForSearch('E\u0301lan')); // no normalisation, as in PostgreSQL
  });
});

describe('migration 010 on SQLite', () => {
  let db: Kysely<DatabaseSchema> | undefined;
  afterEach(async () => db?.destroy());

  it('folds the prompts stored before it and rebuilds the search index over them', async () => {
    const opened = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
    db = opened;
    const migrator = new Migrator({ db: opened, provider: migrationProvider('sqlite') });
    expect((await migrator.migrateTo('009-charges')).error).toBeUndefined();
    for (const [id, prompt] of [
      ['img_1', 'Élan vital'],
      ['img_2', 'Привет, МИР'],
      ['img_3', 'a red fox'],
    ]) {
      await sql`insert into images (id, user_id, prompt, model, r2_key, width, height, cost, created_at, parameters)
        values (${id}, 'alice', ${prompt}, 'local/procedural', ${`generated/${id}.png`}, 64, 64, 0, '2026-11-01T00:00:00.000Z', '{}')`.execute(opened);
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const images = createImageRepository(opened, 'sqlite', createKyselyUnitOfWork(opened));
    const ids = async (text: string) => (await images.listLive('alice', { limit: 10, offset: 0 }, { text })).items.map((row) => row.id);
    expect(await ids('ÉLAN')).toEqual(['img_1']);
    expect(await ids('мир')).toEqual(['img_2']);
    expect(await ids('RED')).toEqual(['img_3']);
    // And a prompt written after it is indexed folded by the trigger.
    await images.insert({
      id: 'img_4',
      user_id: 'alice',
      prompt: 'ÉCOLE',
      model: 'local/procedural',
      r2_key: 'generated/img_4.png',
      width: 64,
      height: 64,
      cost: 0,
      is_deleted: false,
      created_at: '2026-11-02T00:00:00.000Z',
      deleted_at: null,
      template_id: null,
      metadata: null,
      parameters: {},
    });
    expect(await ids('école')).toEqual(['img_4']);
  });
});
