import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createLocalBlobStore } from '../../src/adapters/blob/local-blob-store.js';
import { createMemoryBlobStore } from '../../src/adapters/blob/memory-blob-store.js';
import { createS3BlobStore } from '../../src/adapters/blob/s3-blob-store.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { describeBlobStoreContract } from './blob-store.contract.js';

let s3: Promise<S3TestServer> | undefined;
let buckets = 0;
afterAll(async () => {
  if (s3 !== undefined) await (await s3).close();
});

// Small pages, so the contract's listings cross page boundaries.
describeBlobStoreContract('memory', async () => createMemoryBlobStore(undefined, { listPageSize: 2 }));
describeBlobStoreContract('local disk', async () =>
  createLocalBlobStore({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-blobs-')), publicBaseUrl: 'http://localhost:8787/files', listPageSize: 2 }),
);
// A fresh bucket per test on one s3rver, so listings see only that test's objects.
describeBlobStoreContract(
  'S3 (s3rver)',
  async () => {
    s3 ??= startS3Server();
    const server = await s3;
    buckets += 1;
    const bucket = await server.bucket(`contract-${buckets}`);
    return createS3BlobStore({
      bucket: bucket.name,
      endpoint: server.endpoint,
      forcePathStyle: true,
      region: server.region,
      credentials: server.credentials,
      publicBaseUrl: bucket.publicUrl,
      listPageSize: 2,
    });
  },
  { servesPublicUrls: true },
);
