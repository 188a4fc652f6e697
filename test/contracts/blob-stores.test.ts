import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalBlobStore } from '../../src/adapters/blob/local-blob-store.js';
import { createMemoryBlobStore } from '../../src/adapters/blob/memory-blob-store.js';
import { describeBlobStoreContract } from './blob-store.contract.js';

// Small pages, so the contract's listings cross page boundaries.
describeBlobStoreContract('memory', async () => createMemoryBlobStore(undefined, { listPageSize: 2 }));
describeBlobStoreContract('local disk', async () =>
  createLocalBlobStore({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-blobs-')), publicBaseUrl: 'http://localhost:8787/files', listPageSize: 2 }),
);
