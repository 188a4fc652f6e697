import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/ports/blob-store.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** One behaviour suite for every BlobStore adapter. */
export function describeBlobStoreContract(name: string, open: () => Promise<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    it('stores and returns the exact bytes with their content type', async () => {
      const store = await open();
      await store.put('generated/img_1.png', PNG, 'image/png');
      const blob = await store.get('generated/img_1.png');
      expect(blob?.contentType).toBe('image/png');
      expect(Buffer.from(blob?.bytes ?? []).equals(Buffer.from(PNG))).toBe(true);
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

    it('gives each key a public URL ending in the key', async () => {
      const store = await open();
      expect(store.publicUrl('generated/img_1.png')).toMatch(/^https?:\/\/.+\/generated\/img_1\.png$/);
    });
  });
}
