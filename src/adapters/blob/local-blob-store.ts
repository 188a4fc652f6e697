import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { contentTypeOfKey, isSafeKey, type BlobObject, type BlobStore } from '../../ports/blob-store.js';

export interface LocalBlobStoreOptions {
  root: string;
  /** Base of the public URLs, e.g. `http://localhost:8787/files`; the server serves `root` there. */
  publicBaseUrl: string;
  /** Objects per page of `list` (default 1,000, as S3). */
  listPageSize?: number;
}

/**
 * Writes in progress live here. No key can start with a dot, so nothing in this folder can be read,
 * listed or served as an object, and a half-written file is never public.
 */
export const INCOMING_FOLDER = '.incoming';

/** A read that finds a folder, goes through a file, or names an impossible path: no such object. */
const NO_SUCH_OBJECT = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG']);

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/**
 * Runs a write into `folder`, making the folder first only when the write finds it missing: most writes go to folders
 * that exist, and two mkdir calls per image were two more round trips through the thread pool on a generation's path.
 */
async function inFolder(folder: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
    await fs.mkdir(folder, { recursive: true });
    await write();
  }
}

/**
 * Writes `bytes` to a new file in as few system calls as the kernel takes (one, for a regular file): fs.writeFile
 * writes 512 KiB at a time, and each write is one more trip through the thread pool, which a busy machine makes slow.
 */
async function writeWhole(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      if (bytesWritten === 0) throw new Error(`could not write ${file}: the file system took no bytes`);
      offset += bytesWritten;
    }
  } finally {
    await handle.close();
  }
}

/** Objects as files under `root`; the content type follows the key's extension, as the keys are ours. */
export function createLocalBlobStore(options: LocalBlobStoreOptions): BlobStore {
  const pageSize = options.listPageSize ?? 1000;
  const incoming = path.join(options.root, INCOMING_FOLDER);
  const fileFor = (key: string): string => {
    if (!isSafeKey(key)) throw new Error(`unsafe object key: ${JSON.stringify(key)}`);
    return path.join(options.root, ...key.split('/'));
  };

  /** Files under `folder` whose keys are safe, depth first; dot-entries (our own folders) are skipped. */
  async function* walk(folder: string, keyBase: string): AsyncGenerator<BlobObject> {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (NO_SUCH_OBJECT.has(codeOf(error) ?? '')) return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const key = `${keyBase}${entry.name}`;
      if (entry.isDirectory()) yield* walk(path.join(folder, entry.name), `${key}/`);
      else if (entry.isFile() && isSafeKey(key)) {
        const stat = await fs.stat(path.join(folder, entry.name)).catch(() => undefined);
        if (stat !== undefined) yield { key, modifiedAt: stat.mtime };
      }
    }
  }

  return {
    async put(key, bytes) {
      const file = fileFor(key);
      // Write aside, then rename into place (same file system, so atomic): a reader sees the whole
      // object or none, and a crash leaves only a file in `.incoming`, which no URL reaches.
      const temporary = path.join(incoming, `${randomBytes(8).toString('hex')}.tmp`);
      try {
        await inFolder(incoming, () => writeWhole(temporary, bytes));
        await inFolder(path.dirname(file), () => fs.rename(temporary, file));
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      if (!isSafeKey(key)) return undefined;
      try {
        const bytes = await fs.readFile(fileFor(key));
        return { bytes, contentType: contentTypeOfKey(key) };
      } catch (error) {
        if (NO_SUCH_OBJECT.has(codeOf(error) ?? '')) return undefined;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
    },
    publicUrl(key) {
      return `${options.publicBaseUrl}/${key}`;
    },
    async *list(prefix) {
      // Walk only the folder the prefix names; the rest of the prefix filters file names.
      const folderKey = prefix.slice(0, prefix.lastIndexOf('/') + 1);
      if (folderKey !== '' && !isSafeKey(folderKey.slice(0, -1))) return;
      let page: BlobObject[] = [];
      for await (const object of walk(path.join(options.root, ...folderKey.split('/').filter(Boolean)), folderKey)) {
        if (!object.key.startsWith(prefix)) continue;
        page.push(object);
        if (page.length >= pageSize) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    async removeIncomplete(olderThan) {
      let names: string[];
      try {
        names = await fs.readdir(incoming);
      } catch (error) {
        if (codeOf(error) === 'ENOENT') return [];
        throw error;
      }
      const removed: string[] = [];
      for (const name of names.sort()) {
        const file = path.join(incoming, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat === undefined || stat.mtime >= olderThan) continue;
        await fs.rm(file, { recursive: true, force: true });
        removed.push(`${INCOMING_FOLDER}/${name}`);
      }
      return removed;
    },
  };
}
