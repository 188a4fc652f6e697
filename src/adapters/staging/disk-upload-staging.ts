import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { STAGED_HEAD_BYTES, type StagedFile, type UploadStaging } from '../../ports/upload-staging.js';

export interface DiskStagingOptions {
  /** The folder for staged files (DATA_DIR/tmp for the server); made when missing. */
  dir: string;
}

/** A staged file left by a process that stopped mid-request is this old before start-up removes it. */
const STALE_MS = 60 * 60 * 1000;

/**
 * Files of a request written to a temporary file as they arrive, hashed on the way, so memory holds a chunk per
 * upload rather than the upload. The form's File is backed by the file (fs.openAsBlob reads it only when asked).
 */
export function createDiskUploadStaging({ dir }: DiskStagingOptions): UploadStaging {
  fs.mkdirSync(dir, { recursive: true });
  removeStale(dir);
  return {
    async create({ filename, contentType }) {
      const file = path.join(dir, `upload-${randomUUID()}`);
      const hash = createHash('sha256');
      const head = new Uint8Array(STAGED_HEAD_BYTES);
      let size = 0;
      // A file that fits in its head never touches the disk: a small upload is not queued behind the file-system
      // work of large ones (Node's file operations share four threads).
      let handle: FileHandle | undefined;
      let closed = false;
      const close = async () => {
        if (closed || handle === undefined) return;
        closed = true;
        await handle.close();
      };
      const discard = async () => {
        await close().catch(() => undefined);
        if (handle !== undefined) await rm(file, { force: true });
      };
      return {
        async write(chunk) {
          hash.update(chunk);
          if (handle === undefined && size + chunk.byteLength <= STAGED_HEAD_BYTES) {
            head.set(chunk, size);
            size += chunk.byteLength;
            return;
          }
          if (handle === undefined) {
            handle = await open(file, 'wx', 0o600);
            await handle.write(head.subarray(0, size));
            head.set(chunk.subarray(0, STAGED_HEAD_BYTES - size), size);
          }
          size += chunk.byteLength;
          // Awaited: the next chunk is read from the socket only once this one is on disk (the client's backpressure).
          await handle.write(chunk);
        },
        abort: discard,
        async finish() {
          const sha256 = hash.digest('hex');
          if (handle === undefined) {
            const bytes = head.slice(0, size);
            const staged: StagedFile = { size, head: bytes, sha256, bytes: async () => bytes };
            return { staged, file: new File([bytes], filename, { type: contentType }), discard };
          }
          await close();
          const staged: StagedFile = {
            size,
            head: head.subarray(0, STAGED_HEAD_BYTES),
            sha256,
            path: file,
            bytes: async () => new Uint8Array(await fs.promises.readFile(file)),
          };
          const blob = await fs.openAsBlob(file, { type: contentType });
          return { staged, file: new File([blob], filename, { type: contentType }), discard };
        },
      };
    },
  };
}

function removeStale(dir: string): void {
  const before = Date.now() - STALE_MS;
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith('upload-')) continue;
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // Gone already, or another process's: either way not ours to worry about.
    }
  }
}
