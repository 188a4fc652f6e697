import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createKyselyDatabase } from './kysely-database.js';
import type { DatabaseSchema } from './schema.js';

/**
 * How SQLite plans `?derived_from=` (an image's children), read with EXPLAIN QUERY PLAN from the statements the
 * repository really sends: timing it would make a slow test, the plan says the same thing. Walking the gallery's
 * index costs in proportion to the gallery (10 ms at 100,000 images); looking the children up by id does not.
 */
describe('the SQLite plan of a gallery filtered by parent image', () => {
  let connection: BetterSqlite3.Database | undefined;
  afterEach(() => connection?.close());

  async function plansOf(run: (db: ReturnType<typeof createKyselyDatabase>) => Promise<unknown>): Promise<string[]> {
    connection = new BetterSqlite3(':memory:');
    const sent: CompiledQuery[] = [];
    const kysely = new Kysely<DatabaseSchema>({
      dialect: new SqliteDialect({ database: connection }),
      log: (event) => void (event.level === 'query' && sent.push(event.query)),
    });
    const db = createKyselyDatabase(kysely, 'sqlite');
    await db.migrate();
    sent.length = 0;
    await run(db);
    const raw = connection;
    return sent
      .filter((query) => query.sql.includes('image_sources'))
      .map((query) =>
        raw
          .prepare(`explain query plan ${query.sql}`)
          .all(...(query.parameters as unknown[]))
          .map((row) => (row as { detail: string }).detail)
          .join(' | '),
      );
  }

  it('starts from the parent’s edges and looks each child up by id, for the page and its total', async () => {
    const plans = await plansOf((db) => db.images.listLive('user_a', { limit: 20, offset: 0 }, { derived_from: 'img_parent' }));
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toContain('image_sources_by_source');
      expect(plan).toMatch(/SEARCH images USING INDEX sqlite_autoindex_images_1 \(id=\?\)/);
      expect(plan).not.toContain('images_user_live_created_id');
    }
  });

  it('does the same for a later page, read by cursor', async () => {
    const plans = await plansOf((db) =>
      db.images.listLive('user_a', { limit: 20, offset: 0, after: { created_at: '2026-11-01T00:00:00.000Z', id: 'img_x' } }, { derived_from: 'img_parent' }),
    );
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan).not.toContain('images_user_live_created_id');
  });
});
