/**
 * The gallery's WebP thumbnails, made inside the CPU pool's workers as part of the task that already has the image
 * (encode, verify): never a task of their own, so storing an image costs no extra trip to the pool.
 */
import sharp from 'sharp';
import type { EncodedThumbnail } from '../../ports/image-codec.js';

export interface ThumbnailSource {
  /** Flatten transparency onto white, as the stored image is (`background: opaque`, JPEG). */
  flatten?: boolean;
  /** Refuse an image of more pixels than this before decoding it (verify's limit). */
  maxPixels?: number;
  /** Read a file top to bottom (libvips' sequential access), which keeps a large image's decode to a strip of rows. */
  sequential?: boolean;
}

/**
 * Effort 2 of libwebp's 0..6: on a 2048² image about 30 ms less than the default 4 for files 2 to 4% larger, which
 * at 5 to 70 kB is not worth the CPU time every stored image pays (batches store many).
 */
const WEBP = { quality: 80, effort: 2 } as const;

/**
 * One decode, shrunk to the largest side asked for (the decode is most of the cost: about 60 ms of a 2048² PNG's
 * 65 ms here), then each thumbnail from those pixels. EXIF orientation is applied, since a browser shows the original
 * turned by it and the thumbnail has no EXIF to say so. `failOn: 'error'` makes a cut-short or corrupt file reject,
 * as verify's full decode does (the shrink still reads every row: libvips has no shrink-on-load for PNG, and for
 * JPEG and WebP the scaled decode still reads all the data).
 */
export async function makeThumbnails(bytes: Uint8Array | string, sides: readonly number[], source: ThumbnailSource = {}): Promise<EncodedThumbnail[]> {
  const largest = Math.max(...sides);
  const limits = source.maxPixels === undefined ? {} : { limitInputPixels: source.maxPixels };
  let pipeline = sharp(bytes, { failOn: 'error', ...limits, ...(source.sequential === true ? { sequentialRead: true } : {}) })
    .autoOrient()
    .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true });
  if (source.flatten === true) pipeline = pipeline.flatten({ background: '#ffffff' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const thumbnails: EncodedThumbnail[] = [];
  // One after the other: the pool's thread count is what the service gives image work, not twice that.
  for (const side of sides) {
    let thumbnail = sharp(data, raw);
    if (Math.max(info.width, info.height) > side) thumbnail = thumbnail.resize({ width: side, height: side, fit: 'inside' });
    const made = await thumbnail.webp(WEBP).toBuffer({ resolveWithObject: true });
    // A copy in an ArrayBuffer of its own, which the task's answer can move (see cpu-tasks' ownBuffer).
    thumbnails.push({ side, bytes: new Uint8Array(made.data), width: made.info.width, height: made.info.height });
  }
  return thumbnails;
}

/** The buffers of thumbnails, for the transfer list of a task's answer. */
export const thumbnailBuffers = (thumbnails: readonly EncodedThumbnail[] | undefined): ArrayBuffer[] =>
  (thumbnails ?? []).map((thumbnail) => thumbnail.bytes.buffer as ArrayBuffer);
