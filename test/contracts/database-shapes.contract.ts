import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/ports/database.js';
import { apiKey, batch, image, items, template } from './database-rows.js';

/**
 * What every dialect must hand back in the same shape: PostgreSQL's drivers return bigint counts as
 * strings and would return timestamps as Dates and booleans as booleans if the schema let them; the
 * domain and the JSON it serves must not see the difference.
 */
export function describeShapeContract(database: () => Database): void {
  describe('shapes', () => {
    it('reads numbers as numbers, booleans as booleans and timestamps as the ISO text written', async () => {
      const db = database();
      const row = image({ width: 1536, height: 640, cost: 0.1 + 0.2, created_at: '2026-11-01T10:00:00.000Z' });
      await db.images.insert(row);
      const read = await db.images.findLive('alice', 'img_1');
      expect(read?.width).toBe(1536);
      expect(read?.height).toBe(640);
      // Exactly the double written: no rounding through numeric or real.
      expect(read?.cost).toBe(0.1 + 0.2);
      expect(read?.is_deleted).toBe(false);
      expect(read?.created_at).toBe('2026-11-01T10:00:00.000Z');
      expect(read?.deleted_at).toBeNull();

      await db.apiKeys.insert(
        apiKey({ id: 'key_admin', hash: 'h-admin', is_admin: true, rate_limit: 600, plan: 'enterprise', expires_at: '2027-01-01T00:00:00.000Z' }),
      );
      await db.apiKeys.insert(apiKey({ id: 'key_plain', hash: 'h-plain' }));
      const admin = await db.apiKeys.find('key_admin');
      expect(admin?.is_admin).toBe(true);
      expect(admin?.rate_limit).toBe(600);
      expect(admin?.expires_at).toBe('2027-01-01T00:00:00.000Z');
      expect((await db.apiKeys.find('key_plain'))?.is_admin).toBe(false);
    });

    it('round-trips JSON fields exactly: nesting, arrays, unicode, null, large and fractional numbers', async () => {
      const db = database();
      const metadata = {
        text: 'naïve ☕ "quoted" \\ back\nslash',
        list: [1, 'two', null, true, { deep: [] }],
        tiny: -1.5e-7,
        big: Number.MAX_SAFE_INTEGER,
        flag: false,
        nothing: null,
        empty: {},
      };
      const parameters = { width: 64, height: 64, seed: 4_294_967_295, guidance: 7.5, negative_prompt: 'blurry, "low" quality', steps: 30 };
      await db.images.insert(image({ metadata, parameters }));
      expect(await db.images.findLive('alice', 'img_1')).toMatchObject({ metadata, parameters });
      await db.templates.insert(template({ parameters }));
      expect((await db.templates.findVisible('alice', 'tmpl_1'))?.parameters).toEqual(parameters);
      await db.apiKeys.insert(apiKey({ permissions: ['generate', 'read', 'manage'] }));
      expect((await db.apiKeys.find('key_1'))?.permissions).toEqual(['generate', 'read', 'manage']);
    });

    it('gives exact totals as numbers on every paged list, past the page', async () => {
      const db = database();
      for (let i = 10; i < 23; i += 1) await db.images.insert(image({ id: `img_${i}`, r2_key: `k${i}`, created_at: `2026-11-01T10:00:${i}.000Z` }));
      const images = await db.images.listLive('alice', { limit: 5, offset: 10 });
      expect(images.total).toBe(13);
      expect(images.items.map((row) => row.id)).toEqual(['img_12', 'img_11', 'img_10']);

      await db.collections.insert({
        id: 'coll_1',
        user_id: 'alice',
        name: 'n',
        description: 'd',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
      });
      for (const id of ['img_10', 'img_11', 'img_12']) await db.collections.addImage('coll_1', id, '2026-11-02T00:00:00.000Z');
      const collections = await db.collections.list('alice', { limit: 1, offset: 0 });
      expect(collections).toMatchObject({ total: 1, items: [{ image_count: 3 }] });
      expect((await db.collections.listImages('alice', 'coll_1', { limit: 1, offset: 0 })).total).toBe(3);

      for (let i = 0; i < 3; i += 1) await db.templates.insert(template({ id: `tmpl_${i}` }));
      expect((await db.templates.listVisible('alice', { limit: 1, offset: 0 })).total).toBe(3);
      for (let i = 0; i < 4; i += 1) await db.apiKeys.insert(apiKey({ id: `key_${i}`, hash: `h${i}` }));
      expect((await db.apiKeys.list('alice', { limit: 1, offset: 0 })).total).toBe(4);
      expect(await db.apiKeys.countActive('2026-11-01T10:00:00.000Z')).toBe(4);
      await db.batches.create(batch({}), items('batch_1', 3));
      expect((await db.batches.list('alice', { limit: 1, offset: 0 })).total).toBe(1);
      expect(await db.batches.find('alice', 'batch_1')).toMatchObject({ total_prompts: 3, completed_count: 0, failed_count: 0 });
    });

    it('reports usage figures as numbers, and orders models by code point whatever the collation', async () => {
      const db = database();
      const models = ['beta_1', 'alpha', '@cf/flux', 'Zeta', 'beta-2'];
      for (const [i, model] of models.entries()) await db.images.insert(image({ id: `img_${i}`, r2_key: `k${i}`, model, cost: 0.5 }));
      await db.images.softDelete('alice', 'img_0', '2026-11-02T00:00:00.000Z');
      const usage = await db.analytics.usage('alice', {});
      expect(usage).toMatchObject({ images: 5, deleted_images: 1, cost: 2.5 });
      expect(usage.by_model.map((bucket) => bucket.key)).toEqual(['@cf/flux', 'Zeta', 'alpha', 'beta-2', 'beta_1']);
      expect(usage.by_model[4]).toEqual({ key: 'beta_1', images: 1, deleted_images: 1, cost: 0.5 });
      expect(usage.by_day).toEqual([{ key: '2026-11-01', images: 5, deleted_images: 1, cost: 2.5 }]);
    });
  });
}
