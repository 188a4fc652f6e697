import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/ports/database.js';
import { describeAggregateContract } from './database-aggregates.contract.js';
import { describeQueueRankContract } from './database-queue-ranks.contract.js';
import { describeRollupContract } from './database-rollups.contract.js';
import { describeShapeContract } from './database-shapes.contract.js';
import { describeUploadContract } from './database-uploads.contract.js';
import { image, template } from './database-rows.js';
import { eachMigratedDatabase } from './migrated-database.js';

const page = { limit: 10, offset: 0 };

/** One behaviour suite for every Database adapter; each adapter's test file calls it with a fresh database. */
export function describeDatabaseContract(name: string, open: () => Promise<Database>): void {
  describe(`Database contract: ${name}`, () => {
    let db: Database;
    eachMigratedDatabase(open, (opened) => (db = opened));

    it('migrates idempotently and answers ping', async () => {
      await db.migrate();
      await expect(db.ping()).resolves.toBeUndefined();
    });

    it('stores and reads back an image exactly, JSON fields included', async () => {
      const row = image({});
      await db.images.insert(row);
      expect(await db.images.findLive('alice', 'img_1')).toEqual(row);
    });

    it('scopes images to their user', async () => {
      await db.images.insert(image({}));
      expect(await db.images.findLive('bob', 'img_1')).toBeUndefined();
      expect((await db.images.listLive('bob', page)).total).toBe(0);
      expect(await db.images.softDelete('bob', 'img_1', '2026-11-02T00:00:00.000Z')).toBe(false);
    });

    it('lists live images newest first, paged, with the total', async () => {
      for (let i = 1; i <= 5; i += 1) await db.images.insert(image({ id: `img_${i}`, created_at: `2026-11-0${i}T00:00:00.000Z` }));
      const result = await db.images.listLive('alice', { limit: 2, offset: 1 });
      expect(result.items.map((row) => row.id)).toEqual(['img_4', 'img_3']);
      expect(result.total).toBe(5);
    });

    it('filters live images by prompt text (any case, literally), model and time range, counting only matches', async () => {
      await db.images.insert(image({ id: 'img_1', prompt: 'A Red Fox', created_at: '2026-11-01T00:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_2', prompt: '100% fox_like', model: 'openai/dall-e-3', created_at: '2026-11-02T00:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_3', prompt: 'a whale', created_at: '2026-11-03T00:00:00.000Z' }));
      const ids = async (filter: Parameters<Database['images']['listLive']>[2]) => (await db.images.listLive('alice', page, filter)).items.map((row) => row.id);
      expect(await ids({ text: 'fox' })).toEqual(['img_2', 'img_1']);
      expect(await ids({ text: '0%' })).toEqual(['img_2']);
      expect(await ids({ text: 'x_l' })).toEqual(['img_2']);
      expect(await ids({ text: 'd_f' })).toEqual([]);
      expect(await ids({ model: 'openai/dall-e-3' })).toEqual(['img_2']);
      expect(await ids({ from: '2026-11-02T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' })).toEqual(['img_2']);
      expect((await db.images.listLive('alice', { limit: 1, offset: 0 }, { text: 'FOX' })).total).toBe(2);
      expect((await db.images.listLive('bob', page, { text: 'fox' })).total).toBe(0);
    });

    it('finds the same images for the same text in any script, lowercasing each character as PostgreSQL does', async () => {
      const prompts = ['Élan vital', 'STRASSE am Meer', 'die Straße', 'ΣΟΦΙΑ και λόγος', 'ΟΔΟΣ', 'Привет, МИР', 'a red fox'];
      for (const [index, prompt] of prompts.entries()) {
        await db.images.insert(image({ id: `img_${index + 1}`, prompt, created_at: `2026-11-0${index + 1}T00:00:00.000Z` }));
      }
      const ids = async (text: string) => (await db.images.listLive('alice', page, { text })).items.map((row) => row.id).sort();
      expect(await ids('élan')).toEqual(['img_1']);
      expect(await ids('ÉLAN')).toEqual(['img_1']);
      expect(await ids('éL')).toEqual(['img_1']); // under three characters: no trigram index, the same answer
      expect(await ids('elan')).toEqual([]); // accents count, as in PostgreSQL
      // lower() maps one character to one: ß stays ß, so straße and STRASSE are different words.
      expect(await ids('STRASSE')).toEqual(['img_2']);
      expect(await ids('strasse')).toEqual(['img_2']);
      expect(await ids('straße')).toEqual(['img_3']);
      expect(await ids('STRAßE')).toEqual(['img_3']);
      expect(await ids('σοφια')).toEqual(['img_4']);
      expect(await ids('ΛΌΓΟΣ')).toEqual([]); // Σ lowercases to σ, never to the final ς the prompt has
      expect(await ids('λόγος')).toEqual(['img_4']);
      expect(await ids('οδοσ')).toEqual(['img_5']);
      expect(await ids('привет')).toEqual(['img_6']);
      expect(await ids('мир')).toEqual(['img_6']);
      expect(await ids('ПРИВЕТ, мир')).toEqual(['img_6']);
      expect(await ids('RED FOX')).toEqual(['img_7']);
    });

    it('keeps kind and lineage, lists by kind, and finds the children of an image for its user only', async () => {
      await db.images.insert(image({ id: 'img_up', kind: 'upload', model: 'upload', r2_key: 'uploads/img_up.jpg', created_at: '2026-11-01T00:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_mask', kind: 'upload', model: 'upload', created_at: '2026-11-01T00:00:01.000Z' }));
      const edit = image({ id: 'img_edit', source_image_ids: ['img_up'], parameters: { mask_image_id: 'img_mask' }, created_at: '2026-11-02T00:00:00.000Z' });
      await db.images.insert(edit);
      await db.images.insert(image({ id: 'img_both', source_image_ids: ['img_edit', 'img_up'], created_at: '2026-11-03T00:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_bob', user_id: 'bob', source_image_ids: ['img_up'] }));
      expect(await db.images.findLive('alice', 'img_edit')).toEqual(edit);
      const ids = async (userId: string, filter: Parameters<Database['images']['listLive']>[2]) =>
        (await db.images.listLive(userId, page, filter)).items.map((row) => row.id);
      expect(await ids('alice', { kind: 'upload' })).toEqual(['img_mask', 'img_up']);
      expect(await ids('alice', { kind: 'generated' })).toEqual(['img_both', 'img_edit']);
      expect(await ids('alice', { derived_from: 'img_up' })).toEqual(['img_both', 'img_edit']);
      expect(await ids('alice', { derived_from: 'img_edit' })).toEqual(['img_both']);
      expect(await ids('bob', { derived_from: 'img_up' })).toEqual(['img_bob']);
      expect(await db.images.derivedIds('alice', 'img_up', 10)).toEqual(['img_both', 'img_edit']);
      expect(await db.images.derivedIds('alice', 'img_up', 1)).toEqual(['img_both']);
      expect(await db.images.derivedIds('bob', 'img_edit', 10)).toEqual([]);
      expect((await db.images.listLive('alice', page, { derived_from: 'img_up', kind: 'generated' })).total).toBe(2);
    });

    it('discards an upload of its user outright, counters included, and never a generated image', async () => {
      await db.images.insert(image({ id: 'img_up', kind: 'upload', model: 'upload', cost: 0 }));
      await db.images.insert(image({ id: 'img_gen', created_at: '2026-11-01T11:00:00.000Z' }));
      expect(await db.images.discardUpload('bob', 'img_up')).toBe(false);
      expect(await db.images.discardUpload('alice', 'img_gen')).toBe(false);
      expect(await db.images.discardUpload('alice', 'img_up')).toBe(true);
      expect(await db.images.findLive('alice', 'img_up')).toBeUndefined();
      expect((await db.images.listLive('alice', page)).total).toBe(1);
      expect(await db.images.discardUpload('alice', 'img_up')).toBe(false);
    });

    it('advances a setting only forward, and gives one of many racing callers the claim', async () => {
      expect(await db.settings.advance('window', '0002')).toBe(true);
      expect(await db.settings.advance('window', '0002')).toBe(false);
      expect(await db.settings.advance('window', '0001')).toBe(false);
      expect(await db.settings.get('window')).toBe('0002');
      const raced = await Promise.all(Array.from({ length: 8 }, () => db.settings.advance('window', '0003')));
      expect(raced.filter(Boolean)).toHaveLength(1);
    });

    it('soft-deletes once, hiding the image from live reads', async () => {
      await db.images.insert(image({}));
      expect(await db.images.softDelete('alice', 'img_1', '2026-11-02T00:00:00.000Z')).toBe(true);
      expect(await db.images.softDelete('alice', 'img_1', '2026-11-03T00:00:00.000Z')).toBe(false);
      expect(await db.images.findLive('alice', 'img_1')).toBeUndefined();
      expect((await db.images.listLive('alice', page)).total).toBe(0);
    });

    it("tells which object keys a live image points at, any user's, soft-deleted ones not", async () => {
      await db.images.insert(image({ id: 'img_a', r2_key: 'generated/img_a.png' }));
      await db.images.insert(image({ id: 'img_b', user_id: 'bob', r2_key: 'generated/img_b.png' }));
      await db.images.insert(image({ id: 'img_c', r2_key: 'generated/img_c.png' }));
      await db.images.softDelete('alice', 'img_c', '2026-11-02T00:00:00.000Z');
      const asked = ['generated/img_a.png', 'generated/img_b.png', 'generated/img_c.png', 'generated/img_orphan.png', 'generated/img_a.png'];
      expect(await db.images.liveKeys(asked)).toEqual(new Set(['generated/img_a.png', 'generated/img_b.png']));
      expect(await db.images.liveKeys([])).toEqual(new Set());
    });

    it("tells which image ids are live images, any user's, soft-deleted ones not, and more than one query may bind", async () => {
      await db.images.insert(image({ id: 'img_a', r2_key: 'generated/img_a.png' }));
      await db.images.insert(image({ id: 'img_b', user_id: 'bob', r2_key: 'uploads/img_b.png' }));
      await db.images.softDelete('bob', 'img_b', '2026-11-02T00:00:00.000Z');
      const asked = ['img_a', 'img_b', 'img_gone', 'img_a', ...Array.from({ length: 1200 }, (_, i) => `img_x${i}`)];
      expect(await db.images.liveIds(asked)).toEqual(new Set(['img_a']));
      expect(await db.images.liveIds([])).toEqual(new Set());
    });

    it('keeps whether an image has thumbnails', async () => {
      await db.images.insert(image({ id: 'img_with', has_thumbnails: true }));
      await db.images.insert(image({ id: 'img_without', has_thumbnails: false }));
      expect((await db.images.findLive('alice', 'img_with'))?.has_thumbnails).toBe(true);
      expect((await db.images.findLive('alice', 'img_without'))?.has_thumbnails).toBe(false);
    });

    it('answers for more keys than one query may bind', async () => {
      for (let i = 0; i < 3; i += 1) await db.images.insert(image({ id: `img_${i}`, r2_key: `generated/img_${i}.png` }));
      const asked = Array.from({ length: 2500 }, (_, i) => `generated/img_${i}.png`);
      expect(await db.images.liveKeys(asked)).toEqual(new Set(['generated/img_0.png', 'generated/img_1.png', 'generated/img_2.png']));
    });

    it('keeps collection memberships idempotent and removes them with the collection, not the images', async () => {
      await db.images.insert(image({}));
      await db.collections.insert({
        id: 'coll_1',
        user_id: 'alice',
        name: 'n',
        description: 'd',
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
      });
      expect(await db.collections.addImage('coll_1', 'img_1', '2026-11-01T00:00:01.000Z')).toBe(true);
      expect(await db.collections.addImage('coll_1', 'img_1', '2026-11-01T00:00:02.000Z')).toBe(false);
      expect((await db.collections.find('alice', 'coll_1'))?.image_count).toBe(1);
      expect((await db.collections.listImages('alice', 'coll_1', page)).items.map((row) => row.id)).toEqual(['img_1']);
      expect(await db.collections.find('bob', 'coll_1')).toBeUndefined();
      expect(await db.collections.delete('bob', 'coll_1')).toBe(false);
      expect(await db.collections.delete('alice', 'coll_1')).toBe(true);
      expect(await db.collections.find('alice', 'coll_1')).toBeUndefined();
      expect(await db.images.findLive('alice', 'img_1')).toBeDefined();
    });

    it('shows system templates to everyone and a user template only to its owner', async () => {
      await db.templates.seed([template({ id: 'tmpl_sys', user_id: 'system' })]);
      await db.templates.seed([template({ id: 'tmpl_sys', user_id: 'system', name: 'renamed' })]);
      await db.templates.insert(template({ id: 'tmpl_alice', created_at: '2026-11-02T00:00:00.000Z' }));
      expect((await db.templates.findVisible('bob', 'tmpl_sys'))?.name).toBe('renamed');
      expect(await db.templates.findVisible('bob', 'tmpl_alice')).toBeUndefined();
      expect((await db.templates.listVisible('alice', page)).items.map((row) => row.id)).toEqual(['tmpl_alice', 'tmpl_sys']);
      expect(await db.templates.delete('bob', 'tmpl_alice')).toBe(false);
      await db.templates.update({ ...template({ id: 'tmpl_alice' }), name: 'changed', parameters: { width: 128 } });
      expect(await db.templates.findVisible('alice', 'tmpl_alice')).toMatchObject({ name: 'changed', parameters: { width: 128 } });
      expect(await db.templates.delete('alice', 'tmpl_alice')).toBe(true);
    });

    it('sums usage per model and per UTC day, deleted images included, within a range', async () => {
      await db.images.insert(image({ id: 'img_a', cost: 0.1, created_at: '2026-11-01T01:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_b', cost: 0.2, model: 'm2', created_at: '2026-11-01T23:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_c', cost: 0.3, created_at: '2026-11-03T12:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_other', user_id: 'bob', cost: 9 }));
      await db.images.softDelete('alice', 'img_c', '2026-11-04T00:00:00.000Z');

      const all = await db.analytics.usage('alice', {});
      expect(all).toMatchObject({ images: 3, deleted_images: 1 });
      expect(all.cost).toBeCloseTo(0.6, 12);
      expect(all.by_model.map((b) => [b.key, b.images])).toEqual([
        ['local/procedural', 2],
        ['m2', 1],
      ]);
      expect(all.by_day.map((b) => [b.key, b.images, b.deleted_images])).toEqual([
        ['2026-11-01', 2, 0],
        ['2026-11-03', 1, 1],
      ]);
      expect(all.by_day_and_model.map((b) => [b.day, b.model, b.images, b.deleted_images])).toEqual([
        ['2026-11-01', 'local/procedural', 1, 0],
        ['2026-11-01', 'm2', 1, 0],
        ['2026-11-03', 'local/procedural', 1, 1],
      ]);
      expect(all.by_day_and_model.find((b) => b.model === 'm2')?.cost).toBeCloseTo(0.2, 12);

      const ranged = await db.analytics.usage('alice', { from: '2026-11-01T12:00:00.000Z', to: '2026-11-03T12:00:00.000Z' });
      expect(ranged.images).toBe(1);
      expect(await db.analytics.usage('nobody', {})).toEqual({ images: 0, deleted_images: 0, cost: 0, by_model: [], by_day: [], by_day_and_model: [] });
    });

    it('splits each day by model in code-point order, whatever the database collation', async () => {
      // A collation that ignores punctuation (PostgreSQL en_US) would put `@z/...` after `local/...`.
      await db.images.insert(image({ id: 'img_a', model: 'local/procedural', created_at: '2026-11-02T01:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_b', model: '@z/m', cost: 0.5, created_at: '2026-11-02T02:00:00.000Z' }));
      await db.images.insert(image({ id: 'img_c', model: '@z/m', cost: 0.5, created_at: '2026-11-01T02:00:00.000Z' }));
      const usage = await db.analytics.usage('alice', {});
      expect(usage.by_day_and_model.map((b) => [b.day, b.model, b.images])).toEqual([
        ['2026-11-01', '@z/m', 1],
        ['2026-11-02', '@z/m', 1],
        ['2026-11-02', 'local/procedural', 1],
      ]);
    });

    describeShapeContract(() => db);
    describeUploadContract(() => db);
    describeAggregateContract(() => db);
    describeQueueRankContract(() => db);
    describeRollupContract(async () => {
      const fresh = await open();
      await fresh.migrate();
      return fresh;
    });
  });
}
