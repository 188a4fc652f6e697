import { env } from 'cloudflare:workers';
import { createR2BlobStore, type R2BucketBinding } from '../../../src/adapters/blob/r2-blob-store.js';
import { describeBlobStoreContract } from '../../contracts/blob-store.contract.js';

/** The BlobStore contract against R2 as workerd runs it locally (Miniflare's R2, one bucket per test file). */
const bucket = env.BLOBS as R2BucketBinding;
let run = 0;

describeBlobStoreContract('R2 through the bucket binding, in workerd', async () => {
  // Each test gets keys of its own under a fresh prefix's store: the bucket is shared by the file's tests.
  run += 1;
  const store = createR2BlobStore(bucket, { publicBaseUrl: `https://images.example/run-${run}` });
  for await (const page of store.list('')) for (const object of page) await store.delete(object.key);
  return store;
});
