import { describe, expect, it } from 'vitest';
import type { BlobObject, BlobStore } from '../../src/ports/blob-store.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

async function listAll(store: BlobStore, prefix: string): Promise<{ pages: BlobObject[][]; objects: BlobObject[] }> {
  const pages: BlobObject[][] = [];
  for await (const page of store.list(prefix)) pages.push(page);
  return { pages, objects: pages.flat().sort((a, b) => a.key.localeCompare(b.key)) };
}

/**
 * One behaviour suite for every BlobStore adapter, on Node and inside workerd (so no Node API here: no Buffer).
 * With `servesPublicUrls`, the adapter's storage itself
 * serves `publicUrl(key)` over HTTP (object storage does; the local store relies on the API server).
 */
export function describeBlobStoreContract(name: string, open: () => Promise<BlobStore>, options: { servesPublicUrls?: boolean } = {}): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('stores and returns the exact bytes with their content type', async () => {
      const store = await open();
      await store.put('generated/img_1.png', PNG, 'image/png');
      const blob = await store.get('generated/img_1.png');
      expect(blob?.contentType).toBe('image/png');
      expect([...(blob?.bytes ?? [])]).toEqual([...PNG]);
    });

    it('overwrites an object under the same key', async () => {
      const store = await open();
      await store.put('generated/img_2.png', PNG, 'image/png');
      await store.put('generated/img_2.png', Uint8Array.from([9]), 'image/png');
      expect([...((await store.get('generated/img_2.png'))?.bytes ?? [])]).toEqual([9]);
    });

    it('answers undefined for a missing key and deletes idempotently', async () => {
      const store = await open();
      expect(await store.get('generated/none.png')).toBeUndefined();
      await store.put('generated/img_3.png', PNG, 'image/png');
      await store.delete('generated/img_3.png');
      await store.delete('generated/img_3.png');
      expect(await store.get('generated/img_3.png')).toBeUndefined();
    });

    it('refuses keys that could escape its root', async () => {
      const store = await open();
      for (const key of ['../etc/passwd', '/abs.png', 'a/../../b.png', 'a//b.png']) {
        await expect(store.put(key, PNG, 'image/png')).rejects.toThrow(/unsafe/);
        expect(await store.get(key)).toBeUndefined();
      }
    });

    it('answers undefined for a key that names a folder, goes under an object, or is too long', async () => {
      const store = await open();
      await store.put('generated/img_4.png', PNG, 'image/png');
      expect(await store.get('generated')).toBeUndefined();
      expect(await store.get('generated/img_4.png/x')).toBeUndefined();
      expect(await store.get(`generated/${'a'.repeat(300)}.png`)).toBeUndefined();
      expect(await store.get(`${'a/'.repeat(600)}b.png`)).toBeUndefined();
      await expect(store.put(`generated/${'a'.repeat(300)}.png`, PNG, 'image/png')).rejects.toThrow(/unsafe/);
    });

    it('lists every object under a prefix exactly once, with when it was written', async () => {
      const store = await open();
      const before = Date.now();
      for (const id of [1, 2, 3, 4, 5]) await store.put(`generated/img_${id}.png`, PNG, 'image/png');
      await store.put('other/img_9.png', PNG, 'image/png');
      const { pages, objects } = await listAll(store, 'generated/');
      expect(objects.map((object) => object.key)).toEqual([1, 2, 3, 4, 5].map((id) => `generated/img_${id}.png`));
      expect(pages.every((page) => page.length > 0)).toBe(true);
      for (const { modifiedAt } of objects) {
        expect(modifiedAt).toBeInstanceOf(Date);
        // File systems stamp with a coarser clock than Date.now(); a few seconds either way is "now".
        expect(Math.abs(modifiedAt.getTime() - before)).toBeLessThan(5_000);
      }
    });

    it('lists by plain string prefix, everything for an empty prefix, and nothing deleted', async () => {
      const store = await open();
      await store.put('generated/img_a.png', PNG, 'image/png');
      await store.put('generated/img_b.png', PNG, 'image/png');
      await store.put('other/img_c.png', PNG, 'image/png');
      await store.delete('generated/img_b.png');
      expect((await listAll(store, '')).objects.map((object) => object.key)).toEqual(['generated/img_a.png', 'other/img_c.png']);
      expect((await listAll(store, 'generated/img_a')).objects.map((object) => object.key)).toEqual(['generated/img_a.png']);
      expect((await listAll(store, 'missing/')).objects).toEqual([]);
    });

    it('leaves nothing incomplete behind a finished put', async () => {
      const store = await open();
      await store.put('generated/img_5.png', PNG, 'image/png');
      expect(await store.removeIncomplete(new Date(Date.now() + 60_000))).toEqual([]);
      expect((await listAll(store, '')).objects.map((object) => object.key)).toEqual(['generated/img_5.png']);
    });

    it('gives each key a public URL ending in the key', async () => {
      const store = await open();
      expect(store.publicUrl('generated/img_1.png')).toMatch(/^https?:\/\/.+\/generated\/img_1\.png$/);
    });

    if (options.servesPublicUrls === true) {
      it('serves each object at its public URL to a plain GET, as image/png, until it is deleted', async () => {
        const store = await open();
        await store.put('generated/img_6.png', PNG, 'image/png');
        const served = await fetch(store.publicUrl('generated/img_6.png'));
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe('image/png');
        expect([...new Uint8Array(await served.arrayBuffer())]).toEqual([...PNG]);
        await store.delete('generated/img_6.png');
        const gone = await fetch(store.publicUrl('generated/img_6.png'));
        await gone.arrayBuffer();
        expect(gone.ok).toBe(false);
      });
    }
  });
}
