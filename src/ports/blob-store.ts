export interface StoredBlob {
  bytes: Uint8Array;
  contentType: string;
}

/** One object as a listing shows it. */
export interface BlobObject {
  key: string;
  modifiedAt: Date;
}

/** Object storage as the service uses it: keys like `generated/<image_id>.png`, each with a public URL. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object, or undefined when no object has this key (including keys that are not safe keys). */
  get(key: string): Promise<StoredBlob | undefined>;
  delete(key: string): Promise<void>;
  /** The public URL a browser can load the object from. */
  publicUrl(key: string): string;
  /**
   * Every object whose key starts with `prefix` (a plain string prefix, as S3's ListObjectsV2), a page at
   * a time, in no particular order. Objects put or deleted while listing may or may not appear.
   */
  list(prefix: string): AsyncIterable<BlobObject[]>;
  /**
   * Removes writes that a stopped process left unfinished and that began before `olderThan` (a local
   * store's temporary files; on S3 that would be abandoned multipart uploads). They are never objects:
   * no key addresses them. Returns what was removed, for the log.
   */
  removeIncomplete(olderThan: Date): Promise<string[]>;
}

/**
 * Longest key, and longest part between slashes: within what S3 and local file systems accept. A part stays
 * well under a file system's 255 bytes because S3 servers that keep objects as files add their own suffix
 * (s3rver answered 500 for a 255-character name); our own keys are under 60 characters.
 */
export const MAX_KEY_LENGTH = 1024;
export const MAX_KEY_SEGMENT_LENGTH = 200;

/**
 * Keys are always relative, slash-separated, without `..`, so no adapter can be steered outside its root;
 * no part starts with a dot, so adapters can keep private files (temporary writes) where no key reaches.
 */
export function isSafeKey(key: string): boolean {
  return (
    key.length <= MAX_KEY_LENGTH &&
    /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) &&
    key.split('/').every((segment) => segment.length <= MAX_KEY_SEGMENT_LENGTH && segment !== '..')
  );
}

/**
 * The type of an object by the extension of its key: the service chooses keys when it stores a file (from the decoded
 * image), so this is what was stored, never a guess from the bytes. Anything else is bytes to download: no browser
 * renders `application/octet-stream` with `nosniff`.
 */
export function contentTypeOfKey(key: string): string {
  const dot = key.lastIndexOf('.');
  return (dot > key.lastIndexOf('/') ? TYPES_BY_EXTENSION[key.slice(dot + 1).toLowerCase()] : undefined) ?? 'application/octet-stream';
}

const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  json: 'application/json',
};
