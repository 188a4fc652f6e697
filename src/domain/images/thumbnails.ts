import type { BlobStore } from '../../ports/blob-store.js';
import type { EncodedThumbnail } from '../../ports/image-codec.js';

/**
 * The gallery's thumbnails: WebP files beside each image, `thumbnails/<image id>-<side>.webp`. Their keys follow
 * from the image's id alone, so a record only needs to say whether it has them, and a retry overwrites its own.
 */
export const THUMBNAIL_KEY_PREFIX = 'thumbnails/';

/** Long sides: `small` for tiles (256w in a srcset), `medium` for wide tiles and high-DPR screens (768w). */
export const THUMBNAIL_SIDES = { small: 256, medium: 768 } as const;

/** What the codec is asked for, in this order. */
export const THUMBNAIL_REQUEST: readonly number[] = [THUMBNAIL_SIDES.small, THUMBNAIL_SIDES.medium];

export interface ThumbnailUrls {
  small: string;
  medium: string;
}

export const thumbnailKey = (imageId: string, side: number): string => `${THUMBNAIL_KEY_PREFIX}${imageId}-${side}.webp`;

/** Every thumbnail key an image may have. */
export const thumbnailKeys = (imageId: string): string[] => THUMBNAIL_REQUEST.map((side) => thumbnailKey(imageId, side));

/** The image id a thumbnail key belongs to; undefined for a key under the prefix that no image would have. */
export function imageIdOfThumbnail(key: string): string | undefined {
  const match = /^thumbnails\/(.+)-(\d+)\.webp$/.exec(key);
  return match?.[1];
}

/**
 * A record's `thumbnails`: the URLs of its two WebP files, or null for an image stored without them (before
 * migration 013, or when making them failed). Takes a stored row as the repository maps it (`has_thumbnails`
 * a boolean) or as a driver returns it (0 or 1), so a serialiser working from raw rows can call it too.
 */
export function thumbnailUrls(row: { id: string; has_thumbnails?: boolean | number | null }, blobs: Pick<BlobStore, 'publicUrl'>): ThumbnailUrls | null {
  if (row.has_thumbnails !== true && row.has_thumbnails !== 1) return null;
  return { small: blobs.publicUrl(thumbnailKey(row.id, THUMBNAIL_SIDES.small)), medium: blobs.publicUrl(thumbnailKey(row.id, THUMBNAIL_SIDES.medium)) };
}

/** Stores an image's thumbnails beside it; true when it has all of them. */
export async function storeThumbnails(blobs: BlobStore, imageId: string, thumbnails: readonly EncodedThumbnail[] | undefined): Promise<boolean> {
  if (thumbnails === undefined || thumbnails.length === 0) return false;
  await Promise.all(thumbnails.map((thumbnail) => blobs.put(thumbnailKey(imageId, thumbnail.side), thumbnail.bytes, 'image/webp')));
  return THUMBNAIL_REQUEST.every((side) => thumbnails.some((thumbnail) => thumbnail.side === side));
}

/** Removes an image's thumbnails (those it does not have are no error); for cleaning up, so it never throws. */
export async function deleteThumbnails(blobs: BlobStore, imageId: string): Promise<void> {
  await Promise.all(thumbnailKeys(imageId).map((key) => blobs.delete(key).catch(() => undefined)));
}
