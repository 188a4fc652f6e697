import { describe, expect, it } from 'vitest';
import type { Database, ImageFilter, ImageRow } from '../../src/ports/database.js';
import { image } from './database-rows.js';

const page = { limit: 10, offset: 0 };
const HASH = 'a'.repeat(64);
const OTHER_HASH = 'b'.repeat(64);

const upload = (over: Partial<ImageRow>): ImageRow =>
  image({ kind: 'upload', model: 'upload', cost: 0, parameters: {}, metadata: null, r2_key: `uploads/${over.id ?? 'img_1'}.png`, ...over });

/**
 * Uploads by role and content (issue 35): a list without kind shows generated images and files uploaded on
 * purpose, never an edit's inputs or masks, and its total (the live counter) agrees through every write; the same
 * bytes are found again for their user only.
 */
export function describeUploadContract(database: () => Database): void {
  describe('uploads by role and content', () => {
    const ids = async (db: Database, filter?: ImageFilter) => (await db.images.listLive('alice', page, filter)).items.map((row) => row.id);
    const total = async (db: Database, filter?: ImageFilter) => (await db.images.listLive('alice', page, filter)).total;

    it('keeps inputs and masks out of a list without kind, and its total, and lists them with kind upload', async () => {
      const db = database();
      await db.images.insert(upload({ id: 'img_file', created_at: '2026-11-01T00:00:00.000Z' }));
      await db.images.insert(upload({ id: 'img_input', upload_role: 'input', created_at: '2026-11-01T00:00:01.000Z' }));
      await db.images.insert(upload({ id: 'img_mask', upload_role: 'mask', prompt: 'mask.png', created_at: '2026-11-01T00:00:02.000Z' }));
      await db.images.insert(
        image({ id: 'img_edit', source_image_ids: ['img_input'], parameters: { mask_image_id: 'img_mask' }, created_at: '2026-11-02T00:00:00.000Z' }),
      );

      expect(await ids(db)).toEqual(['img_edit', 'img_file']);
      expect(await total(db)).toBe(2);
      expect(await ids(db, { text: 'mask' })).toEqual([]);
      expect(await ids(db, { kind: 'upload' })).toEqual(['img_mask', 'img_input', 'img_file']);
      expect(await total(db, { kind: 'upload' })).toBe(3);
      expect(await ids(db, { kind: 'generated' })).toEqual(['img_edit']);
      // Each is an image all the same: found by id (what "Made from" and "Mask" resolve), with its role.
      expect(await db.images.findLive('alice', 'img_input')).toMatchObject({ kind: 'upload', upload_role: 'input' });
      expect(await db.images.findLive('alice', 'img_mask')).toMatchObject({ upload_role: 'mask' });
      expect((await db.images.findLive('alice', 'img_file'))?.upload_role).toBeUndefined();
      expect((await db.images.listLive('alice', page, { kind: 'upload' })).items.find((row) => row.id === 'img_input')?.upload_role).toBe('input');
    });

    it('keeps the total right when an input or mask is deleted or discarded, and moves the version (cached pages) either way', async () => {
      const db = database();
      await db.images.insert(image({ id: 'img_gen' }));
      await db.images.insert(upload({ id: 'img_input', upload_role: 'input', created_at: '2026-11-01T10:00:01.000Z' }));
      await db.images.insert(upload({ id: 'img_mask', upload_role: 'mask', created_at: '2026-11-01T10:00:02.000Z' }));
      expect(await total(db)).toBe(1);
      expect(await ids(db, { kind: 'upload' })).toEqual(['img_mask', 'img_input']);
      expect(await db.images.softDelete('alice', 'img_input', '2026-11-02T00:00:00.000Z')).toBe(true);
      expect(await ids(db, { kind: 'upload' })).toEqual(['img_mask']);
      expect(await total(db)).toBe(1);
      expect(await db.images.discardUpload('alice', 'img_mask')).toBe(true);
      expect(await ids(db, { kind: 'upload' })).toEqual([]);
      expect(await total(db)).toBe(1);
      expect(await ids(db)).toEqual(['img_gen']);
    });

    it('finds a live upload of the same bytes for its user only, the oldest first, never a deleted one', async () => {
      const db = database();
      await db.images.insert(upload({ id: 'img_later', content_hash: HASH, upload_role: 'input', created_at: '2026-11-01T10:00:05.000Z' }));
      await db.images.insert(upload({ id: 'img_first', content_hash: HASH, created_at: '2026-11-01T10:00:00.000Z' }));
      await db.images.insert(upload({ id: 'img_bob', user_id: 'bob', content_hash: OTHER_HASH }));
      expect((await db.images.findUploadByContent('alice', HASH))?.id).toBe('img_first');
      expect(await db.images.findUploadByContent('alice', HASH)).toMatchObject({ content_hash: HASH, kind: 'upload' });
      expect(await db.images.findUploadByContent('bob', HASH)).toBeUndefined();
      expect(await db.images.findUploadByContent('alice', OTHER_HASH)).toBeUndefined();
      expect(await db.images.softDelete('alice', 'img_first', '2026-11-02T00:00:00.000Z')).toBe(true);
      expect(await db.images.findUploadByContent('alice', HASH)).toMatchObject({ id: 'img_later', upload_role: 'input' });
    });

    it('shows an input or mask in the list without kind once it is uploaded on purpose, counted once', async () => {
      const db = database();
      await db.images.insert(upload({ id: 'img_input', upload_role: 'input' }));
      await db.images.insert(upload({ id: 'img_file', created_at: '2026-11-01T09:00:00.000Z' }));
      await db.images.insert(upload({ id: 'img_bob', user_id: 'bob', upload_role: 'mask' }));
      expect(await ids(db)).toEqual(['img_file']);
      expect(await db.images.showUpload('bob', 'img_input')).toBe(false);
      expect(await db.images.showUpload('alice', 'img_file')).toBe(false);
      expect(await db.images.showUpload('alice', 'img_input')).toBe(true);
      expect(await db.images.showUpload('alice', 'img_input')).toBe(false);
      expect(await ids(db)).toEqual(['img_input', 'img_file']);
      expect(await total(db)).toBe(2);
      expect((await db.images.findLive('alice', 'img_input'))?.upload_role).toBeUndefined();
      expect((await db.images.listLive('bob', page)).total).toBe(0);
      expect(await db.images.softDelete('alice', 'img_input', '2026-11-02T00:00:00.000Z')).toBe(true);
      expect(await total(db)).toBe(1);
    });
  });
}
