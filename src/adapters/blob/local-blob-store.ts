import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isSafeKey, type BlobStore } from '../../ports/blob-store.js';
import { contentTypeFor } from './content-type.js';

export interface LocalBlobStoreOptions {
  root: string;
  /** Base of the public URLs, e.g. `http://localhost:8787/files`; the server serves `root` there. */
  publicBaseUrl: string;
}

/** Objects as files under `root`; the content type follows the key's extension, as the keys are ours. */
export function createLocalBlobStore(options: LocalBlobStoreOptions): BlobStore {
  const fileFor = (key: string): string => {
    if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
    return path.join(options.root, ...key.split('/'));
  };

  return {
    async put(key, bytes) {
      const file = fileFor(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader or a crash never sees half an image.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, file);
    },
    async get(key) {
      if (!isSafeKey(key)) return undefined;
      try {
        const bytes = await fs.readFile(fileFor(key));
        return { bytes, contentType: contentTypeFor(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    publicUrl(key) {
      return `${options.publicBaseUrl}/${key}`;
    },
  };
}
