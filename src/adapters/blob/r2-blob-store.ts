import { isSafeKey, type BlobObject, type BlobStore } from '../../ports/blob-store.js';

/**
 * The part of a Worker's R2 bucket binding this store uses, written out here (it matches `R2Bucket` of
 * @cloudflare/workers-types) so the Node build needs no Workers globals in its types.
 */
export interface R2BucketBinding {
  put(key: string, value: Uint8Array, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; httpMetadata?: { contentType?: string } } | null>;
  delete(keys: string | string[]): Promise<void>;
  list(options?: {
    prefix?: string;
    cursor?: string;
    limit?: number;
  }): Promise<{ objects: { key: string; uploaded: Date }[]; truncated: boolean; cursor?: string }>;
}

export interface R2BlobStoreOptions {
  /** Where images are served from: `PUBLIC_BASE_URL/files` when the Worker serves them, or the bucket's public domain. */
  publicBaseUrl: string;
  /** Objects per page of `list` (R2's largest and default is 1,000). */
  listPageSize?: number;
}

/**
 * Blobs in R2 through the Worker's bucket binding: no credentials and no endpoint, the binding is the bucket. A put
 * is atomic in R2 (an object is whole or absent), so nothing is ever left half written for removeIncomplete to find.
 */
export function createR2BlobStore(bucket: R2BucketBinding, options: R2BlobStoreOptions): BlobStore {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const pageSize = options.listPageSize ?? 1000;
  return {
    async put(key, bytes, contentType) {
      if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
      await bucket.put(key, bytes, { httpMetadata: { contentType } });
    },
    async get(key) {
      if (!isSafeKey(key)) return undefined;
      const object = await bucket.get(key);
      if (object === null) return undefined;
      return { bytes: new Uint8Array(await object.arrayBuffer()), contentType: object.httpMetadata?.contentType ?? 'application/octet-stream' };
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      await bucket.delete(key);
    },
    publicUrl(key) {
      return `${base}/${key}`;
    },
    async *list(prefix) {
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) });
        const objects: BlobObject[] = page.objects
          .filter((object) => isSafeKey(object.key))
          .map((object) => ({ key: object.key, modifiedAt: object.uploaded }));
        if (objects.length > 0) yield objects;
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor !== undefined);
    },
    async removeIncomplete() {
      return [];
    },
  };
}
