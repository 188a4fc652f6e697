import type { BlobStore } from '../../ports/blob-store.js';
import { inSpan } from '../../ports/tracer.js';

/** A span around each write (`blobs.put`, a client span to the store); reads, deletes and listings pass through untraced. */
export function traceBlobWrites(store: BlobStore): BlobStore {
  return Object.assign(Object.create(store) as BlobStore, {
    put: (key: string, bytes: Uint8Array, contentType: string) =>
      inSpan(
        'blobs.put',
        { kind: 'client', attributes: { 'imagegate.blob.key': key, 'imagegate.blob.bytes': bytes.byteLength, 'imagegate.blob.content_type': contentType } },
        () => store.put(key, bytes, contentType),
      ),
  });
}
