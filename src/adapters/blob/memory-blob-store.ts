import { isSafeKey, type BlobObject, type BlobStore, type StoredBlob } from '../../ports/blob-store.js';
import { systemClock, type Clock } from '../../ports/clock.js';

export interface MemoryBlobStore extends BlobStore {
  readonly keys: () => string[];
}

export interface MemoryBlobStoreOptions {
  /** Stamps `modifiedAt`; tests pass their own clock. */
  clock?: Clock;
  /** Objects per page of `list` (default 1,000, as S3). */
  listPageSize?: number;
}

export function createMemoryBlobStore(publicBaseUrl = 'http://blobs.test', options: MemoryBlobStoreOptions = {}): MemoryBlobStore {
  const clock = options.clock ?? systemClock;
  const pageSize = options.listPageSize ?? 1000;
  const objects = new Map<string, StoredBlob & { modifiedAt: Date }>();
  return {
    async put(key, bytes, contentType) {
      if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
      objects.set(key, { bytes: Uint8Array.from(bytes), contentType, modifiedAt: clock.now() });
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
    async *list(prefix) {
      const matching: BlobObject[] = [...objects].filter(([key]) => key.startsWith(prefix)).map(([key, blob]) => ({ key, modifiedAt: blob.modifiedAt }));
      for (let start = 0; start < matching.length; start += pageSize) yield matching.slice(start, start + pageSize);
    },
    // A put is one Map write: nothing is ever left half done.
    async removeIncomplete() {
      return [];
    },
    keys: () => [...objects.keys()],
  };
}
