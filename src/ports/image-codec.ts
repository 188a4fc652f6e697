/** A provider's image as the service stores it: always a PNG, with its size as decoded. */
export interface NormalizedPng {
  png: Uint8Array;
  width: number;
  height: number;
}

export interface CodecCallOptions {
  /** The caller gave up: stop waiting (and working) on its image. */
  signal?: AbortSignal;
}

/**
 * Decodes and re-encodes images, which is CPU work kept off the event loop; the domain sees only this.
 * Bytes that are not an image reject with an Error whose message says why (the decoder's words).
 */
export interface ImageCodec {
  /** Every stored object is a PNG: a PNG is kept byte for byte, anything else (JPEG, WebP) is converted. */
  normalizeToPng(bytes: Uint8Array, options?: CodecCallOptions): Promise<NormalizedPng>;
}
