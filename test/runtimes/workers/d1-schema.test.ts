import { applyD1Migrations, type D1Migration } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { migrationsFor } from '../../../src/adapters/db/migrations/index.js';

/** The parts of a D1 binding these checks use (`D1Database` of @cloudflare/workers-types). */
interface D1 {
  prepare(sql: string): { bind(...values: unknown[]): { run(): Promise<unknown>; all<T>(): Promise<{ results: T[] }> } };
}

/**
 * migrations/d1 (generated from the SQLite migrations, npm run gen:d1-migrations) applied to D1 as wrangler would:
 * the schema is whole, and what it relies on beyond plain tables (FTS5 with the trigram tokenizer, its triggers)
 * works on D1.
 */
describe('the D1 migrations', () => {
  const db = env.DB as D1;

  it('apply to an empty D1 database, and again as a no-op', async () => {
    const migrations = env.D1_MIGRATIONS as D1Migration[];
    // One D1 file per migration: a migration added without `npm run gen:d1-migrations` fails here.
    expect(migrations).toHaveLength(Object.keys(migrationsFor('sqlite')).length);
    await applyD1Migrations(env.DB as never, migrations);
    await applyD1Migrations(env.DB as never, migrations);
    const { results } = await db
      .prepare(
        `select name from sqlite_master where type = 'table' and name in ('images', 'image_counters', 'charges', 'batches', 'batch_items', 'images_search')`,
      )
      .bind()
      .all<{ name: string }>();
    expect(results.map((row) => row.name).sort()).toEqual(['batch_items', 'batches', 'charges', 'image_counters', 'images', 'images_search']);
  });

  it('keep the prompt search index by trigger, so a folded prompt is found by part of a word', async () => {
    await applyD1Migrations(env.DB as never, env.D1_MIGRATIONS as D1Migration[]);
    await db
      .prepare(
        `insert into images (id, user_id, prompt, prompt_folded, model, r2_key, width, height, cost, created_at, metadata, parameters, kind, is_deleted, has_thumbnails)
         values (?, 'alice', 'A Lighthouse in a storm', 'a lighthouse in a storm', 'local/procedural', 'generated/img_d1.png', 64, 64, 0, '2026-11-24T00:00:00.000Z', '{}', '{}', 'generated', 0, 1)`,
      )
      .bind('img_d1')
      .run();
    const { results } = await db
      .prepare(`select images.id from images_search join images on images.rowid = images_search.rowid where images_search match ?`)
      .bind('"ghthou"')
      .all<{ id: string }>();
    expect(results).toEqual([{ id: 'img_d1' }]);
  });
});
