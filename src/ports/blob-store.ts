export interface StoredBlob {
  bytes: Uint8Array;
  contentType: string;
}

/** Object storage as the service uses it: keys like `generated/<image_id>.png`, each with a public URL. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<StoredBlob | undefined>;
  delete(key: string): Promise<void>;
  /** The public URL a browser can load the object from. */
  publicUrl(key: string): string;
}

/** Keys are always relative, slash-separated, without `..`, so no adapter can be steered outside its root. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) && !key.split('/').includes('..');
}
