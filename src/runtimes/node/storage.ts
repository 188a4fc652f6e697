import path from 'node:path';
import { createLocalBlobStore } from '../../adapters/blob/local-blob-store.js';
import { createS3BlobStore } from '../../adapters/blob/s3-blob-store.js';
import { acquireDataDirLock, type DataDirLock } from '../../adapters/process/data-dir-lock.js';
import { prepareDataDir } from '../../adapters/process/data-dir.js';
import type { Config } from '../../config/config.js';
import { FILES_PATH } from '../../http/routes/system/files.js';
import type { BlobStore } from '../../ports/blob-store.js';
import type { Logger } from '../../ports/logger.js';

const blobRoot = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'blobs');

/**
 * Readies DATA_DIR for a server and claims it. The embedded mode (SQLite file, job queue inside it)
 * allows one server per DATA_DIR, so it takes a lock; a database server would allow several and skip it.
 */
export function claimDataDir(config: Pick<Config, 'dataDir'>): DataDirLock | undefined {
  prepareDataDir(config.dataDir);
  // A `blobs/` left by a run as another user (sudo) would otherwise fail every generate with a 500.
  prepareDataDir(blobRoot(config), 'the image folder');
  return acquireDataDirLock(config.dataDir);
}

/** Images on local disk (served at /files) or in an S3-compatible bucket (served by its public URL). */
export function openBlobStore(config: Config, logger: Logger): BlobStore {
  const { s3 } = config.storage;
  if (config.storage.driver === 's3' && s3 !== undefined) {
    return createS3BlobStore({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: s3.forcePathStyle, publicBaseUrl: s3.publicUrl, logger });
  }
  return createLocalBlobStore({ root: blobRoot(config), publicBaseUrl: `${config.publicBaseUrl}${FILES_PATH}` });
}
