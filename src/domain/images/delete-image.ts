import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { thumbnailKeys } from './thumbnails.js';

export interface DeletedImage {
  id: string;
  deleted: true;
  /** The record is kept, marked deleted (the spec's soft delete). */
  is_deleted: true;
  deleted_at: string;
  /** The original and its thumbnails are gone from storage; false when the store failed and the sweep will finish. */
  files_removed: boolean;
  message: string;
}

/**
 * Soft delete: the record stays (cost analytics still count it; the spec keeps it) and list and get stop showing
 * it, but its files leave storage at once: a deleted picture must not stay reachable at its public URL. The record
 * is marked first, so a storage outage cannot fail the delete; files left behind then are no live image's, and
 * the orphan sweep (reconcileBlobs, every ORPHAN_SWEEP_INTERVAL) removes them.
 */
export async function deleteImage({ deps, ctx, input }: VerbArgs<{ imageId: string }>): Promise<DeletedImage> {
  const row = await deps.db.images.findLive(ctx.userId, input.imageId);
  if (row === undefined) throw notFound('Image', 'image_id', input.imageId);
  const at = deps.clock.now().toISOString();
  // A concurrent delete of the same image may win between the read and the write: then this one is a 404.
  const deleted = await deps.db.images.softDelete(ctx.userId, input.imageId, at);
  if (!deleted) throw notFound('Image', 'image_id', input.imageId);

  const keys = [row.r2_key, ...thumbnailKeys(row.id)];
  const results = await Promise.allSettled(keys.map((key) => deps.blobs.delete(key)));
  const failed = keys.filter((_, index) => results[index]?.status === 'rejected');
  if (failed.length > 0) {
    const reason = results.find((result) => result.status === 'rejected');
    deps.logger.warn(
      { imageId: row.id, keys: failed, err: reason?.status === 'rejected' ? reason.reason : undefined },
      'deleted image: removing its files from storage failed; the orphan sweep removes them',
    );
  }
  const filesRemoved = failed.length === 0;
  return {
    id: row.id,
    deleted: true,
    is_deleted: true,
    deleted_at: at,
    files_removed: filesRemoved,
    message: filesRemoved
      ? 'The image is deleted: its record is kept (its cost still counts in analytics) and its file and thumbnails are removed from storage, so their URLs no longer answer.'
      : 'The image is deleted and its record kept; storage could not be reached to remove its files just now, so they are removed by the next storage sweep.',
  };
}
