/**
 * A file received with a request, kept where the runtime keeps it while the request runs: on Node a file in the
 * data folder's tmp/ (so a 50 MB upload is never held whole in memory), on Workers in memory (its request limit
 * is small anyway). Removed again when the request ends.
 */
export interface StagedFile {
  readonly size: number;
  /** The first bytes (up to STAGED_HEAD_BYTES), enough for any image header the service reads. */
  readonly head: Uint8Array;
  /** SHA-256 of the bytes in hex, taken while they were staged (what Idempotency-Key compares). */
  readonly sha256: string;
  /** Where the file is on disk, when it is: the CPU pool decodes it from there without a copy through the event loop. */
  readonly path?: string;
  /** All of it in memory, for the moment it is stored. */
  bytes(): Promise<Uint8Array>;
}

/** Enough for a PNG's chunks before IDAT and a JPEG's EXIF and ICC segments before its frame header. */
export const STAGED_HEAD_BYTES = 512 * 1024;

/** Receives one file's bytes in order; `finish` once they are all written, `abort` to drop them. */
export interface StagingWriter {
  write(chunk: Uint8Array): Promise<void>;
  finish(): Promise<StagedUpload>;
  abort(): Promise<void>;
}

export interface StagedUpload {
  staged: StagedFile;
  /** The same bytes as a web File (lazy on Node: backed by the staged file), for the form the routes validate. */
  file: File;
  /** Removes what was staged; safe to call twice. */
  discard(): Promise<void>;
}

export interface UploadStaging {
  create(info: { filename: string; contentType: string }): Promise<StagingWriter>;
}
