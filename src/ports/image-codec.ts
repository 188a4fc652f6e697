export interface CodecCallOptions {
  /** The caller gave up: stop waiting (and working) on its image. */
  signal?: AbortSignal;
}

/**
 * Asks a call that handles the image anyway for WebP thumbnails of it (as stored: flattened when it is), so the
 * gallery's tiles never load the full file and making them costs no second trip to the CPU pool.
 */
export interface ThumbnailOptions {
  /** Long sides in pixels, one thumbnail each; an image smaller than a side keeps its own size (never enlarged). */
  thumbnails?: readonly number[];
}

export interface EncodeOptions extends CodecCallOptions, ThumbnailOptions {
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

/** A WebP thumbnail: `side` is the long side asked for, `width` and `height` what it came out as. */
export interface EncodedThumbnail {
  side: number;
  bytes: Uint8Array;
  width: number;
  height: number;
}

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
  /** For the object key: `png`, `jpg` or `webp`. */
  extension: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
  /** One per side asked for, in the order asked; absent when none were asked for or making them failed. */
  thumbnails?: EncodedThumbnail[];
  /**
   * Why the thumbnails asked for are missing (the decoder's words). The image itself is still good to store: the
   * encoder may keep a PNG without decoding it, and a paid image is not thrown away for want of a preview.
   */
  thumbnailsFailed?: string;
}

/** What `verify` found: the image's size, and its thumbnails when they were asked for (made from the same decode). */
export interface VerifiedImage {
  width: number;
  height: number;
  thumbnails?: EncodedThumbnail[];
}

/**
 * An image in a file of its own (a staged upload): a codec that reads files decodes it from there, a row at a
 * time, rather than from a copy of its bytes in memory. Codecs without file access take bytes only (`readsFiles`).
 */
export interface ImageFileRef {
  path: string;
}

/** The image types the service takes in (uploads, edits, references), as read from the bytes. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

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
   * with its size; rejects with the decoder's reason. With `thumbnails`, the decode that checks every pixel is
   * the one that makes them. `pixels`, what the header says, lets a codec keep a small image's decode from waiting
   * behind large ones.
   */
  verify(image: Uint8Array | ImageFileRef, options: CodecCallOptions & ThumbnailOptions & { maxPixels: number; pixels?: number }): Promise<VerifiedImage>;
  /**
   * Starts now, in the background, whatever the codec runs on (threads), for work known to be coming: a batch whose
   * answers will be stored. Does nothing once started; optional for codecs with nothing to start.
   */
  warm?(): void;
  /**
   * The formats `encode` can write, when not all three (a runtime without libvips writes PNG only): a request for
   * another is refused before any provider is called, so nobody pays for an image that cannot be stored.
   */
  readonly outputFormats?: readonly EncodeOptions['format'][];
  /** The types `verify` and `edit` can decode, when not all three (PNG only without libvips); others are refused as such. */
  readonly inputFormats?: readonly ImageType[];
  /** True where `verify` takes an ImageFileRef; elsewhere the caller passes the bytes. */
  readonly readsFiles?: boolean;
  /** False where no thumbnail can be made (no WebP encoder): none is asked for, and none is missed in the log. */
  readonly makesThumbnails?: boolean;
}
