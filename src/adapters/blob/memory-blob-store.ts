import { isSafeKey, type BlobStore, type StoredBlob } from '../../ports/blob-store.js';

export interface MemoryBlobStore extends BlobStore {
  readonly keys: () => string[];
}

export function createMemoryBlobStore(publicBaseUrl = 'http://blobs.test'): MemoryBlobStore {
  const objects = new Map<string, StoredBlob>();
  return {
    async put(key, bytes, contentType) {
      if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
      objects.set(key, { bytes: Uint8Array.from(bytes), contentType });
    },
    async get(key) {
      const blob = objects.get(key);
      return blob === undefined ? undefined : { bytes: Uint8Array.from(blob.bytes), contentType: blob.contentType };
    },
    async delete(key) {
      objects.delete(key);
    },
    publicUrl(key) {
      return `${publicBaseUrl}/${key}`;
    },
    keys: () => [...objects.keys()],
  };
}
