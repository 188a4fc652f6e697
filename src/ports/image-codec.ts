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
  /**
   * The bytes in standard base64 (with padding), as ASCII bytes rather than a string: an answer of megabytes
   * is encoded off the event loop and written out as it is, never held as one large string.
   */
  base64(bytes: Uint8Array, options?: CodecCallOptions): Promise<Uint8Array>;
}
