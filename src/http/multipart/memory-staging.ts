import { STAGED_HEAD_BYTES, type StagedFile, type UploadStaging } from '../../ports/upload-staging.js';

const hex = (digest: ArrayBuffer): string => [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * Files kept in memory: for Workers, which has no disk and whose request limit keeps a body small, and for apps
 * built without a runtime's staging. Chunks are kept as they came and joined once, when the file is finished.
 */
export function createMemoryStaging(): UploadStaging {
  return {
    async create({ filename, contentType }) {
      let chunks: Uint8Array[] = [];
      return {
        async write(chunk) {
          // The reader's chunks are views of its buffer, valid until it reads on: each is kept as a copy.
          chunks.push(chunk.slice());
        },
        async abort() {
          chunks = [];
        },
        async finish() {
          const file = new File(chunks as BlobPart[], filename, { type: contentType });
          chunks = [];
          const bytes = new Uint8Array(await file.arrayBuffer());
          const staged: StagedFile = {
            size: bytes.byteLength,
            head: bytes.subarray(0, STAGED_HEAD_BYTES),
            sha256: hex(await crypto.subtle.digest('SHA-256', bytes)),
            bytes: async () => bytes,
          };
          return { staged, file, discard: async () => undefined };
        },
      };
    },
  };
}
