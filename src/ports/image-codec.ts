export interface CodecCallOptions {
  /** The caller gave up: stop waiting (and working) on its image. */
  signal?: AbortSignal;
}

export interface EncodeOptions extends CodecCallOptions {
  format: 'png' | 'jpeg' | 'webp';
  /** 0..100 for jpeg and webp (OpenAI's `output_compression`: 100 is the least compressed); the encoder's default when absent. */
  compression?: number;
  /** Flatten any transparency onto white (`background: opaque`, and always for jpeg, which has no alpha). */
  opaque?: boolean;
  /**
   * Shrink to fit this many pixels on the long side, keeping the aspect ratio (never enlarging): a preview for
   * answers that carry the picture inline, such as MCP's image blocks.
   */
  maxSide?: number;
}

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
  /** For the object key: `png`, `jpg` or `webp`. */
  extension: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
}

/**
 * Decodes and re-encodes images, which is CPU work kept off the event loop; the domain sees only this.
 * Bytes that are not an image reject with an Error whose message says why (the decoder's words).
 */
export interface ImageCodec {
  /**
   * The bytes in standard base64 (with padding), as ASCII bytes rather than a string: an answer of megabytes
   * is encoded off the event loop and written out as it is, never held as one large string.
   */
  base64(bytes: Uint8Array, options?: CodecCallOptions): Promise<Uint8Array>;
  /**
   * The image in the wanted format, at the size it comes out (smaller with `maxSide`). A PNG asked for as PNG,
   * with nothing to flatten or shrink, is kept byte for byte; anything else is decoded and encoded.
   */
  encode(bytes: Uint8Array, options: EncodeOptions): Promise<EncodedImage>;
  /**
   * Decodes the whole image, refusing one of more than `maxPixels` before decoding it, so a file that only
   * starts like an image (truncated, corrupt) is refused on the way in rather than at the provider. Resolves
   * with its size; rejects with the decoder's reason.
   */
  verify(bytes: Uint8Array, options: CodecCallOptions & { maxPixels: number }): Promise<{ width: number; height: number }>;
}
