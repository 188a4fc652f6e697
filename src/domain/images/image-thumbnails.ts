import type { ImageRow } from '../../ports/database.js';
import { DependencyUnavailable } from '../../ports/dependency-unavailable.js';
import type { Deps } from '../context.js';
import { enqueueJob, jobId, type JobPayload } from '../jobs.js';
import { storeThumbnails, THUMBNAIL_REQUEST } from './thumbnails.js';

type ThumbnailDeps = Pick<Deps, 'db' | 'blobs' | 'codec' | 'logger'>;

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Queues the making of a recorded image's thumbnails, off the path of the answer: the caller gets its image as soon
 * as it is recorded, and the gallery shows the original until they exist. A queue that refuses is logged, not thrown:
 * the image is recorded and paid for, and an image without thumbnails is still shown.
 */
export async function queueThumbnails(
  deps: Pick<Deps, 'queue' | 'codec' | 'logger'>,
  image: Pick<ImageRow, 'id' | 'user_id' | 'has_thumbnails'>,
): Promise<void> {
  if (image.has_thumbnails === true || deps.codec.makesThumbnails === false) return;
  // A task later: a caller waiting in this process (POST /api/generate) was woken by the event published just before,
  // and its answer is written in the microtasks that follow. Queued at once, the job's first queries and the start of
  // its read of the image ran first: 2 to 3 ms more before the answer left (bench scenario `generate`).
  await new Promise((resolve) => setTimeout(resolve, 0));
  try {
    await enqueueJob(deps.queue, 'thumbnails', { imageId: image.id, userId: image.user_id }, { id: jobId('thumbnails', image.id) });
  } catch (error) {
    deps.logger.warn({ imageId: image.id, err: messageOf(error) }, 'could not queue the making of thumbnails; the image is shown from its original');
  }
}

/**
 * The `thumbnails` job: decodes the stored image once (the decode that checks its pixels), stores its WebP thumbnails
 * beside it, then says so on its record. Safe to run again: the keys follow from the id and the record's flag is set
 * last. An image that cannot be decoded keeps none (logged, never retried); storage or the database away is thrown
 * for the queue to run it again.
 */
export async function makeImageThumbnails(deps: ThumbnailDeps, { imageId, userId }: JobPayload<'thumbnails'>): Promise<void> {
  const image = await deps.db.images.findLive(userId, imageId);
  if (image === undefined || image.has_thumbnails === true) return;
  const blob = await deps.blobs.get(image.r2_key).catch((error: unknown) => {
    throw new DependencyUnavailable('storage', `could not read the image: ${messageOf(error)}`, { cause: error });
  });
  if (blob === undefined) return;
  let thumbnails;
  try {
    // As stored: an image flattened for `background: opaque` is opaque already, so nothing is flattened here.
    ({ thumbnails } = await deps.codec.verify(blob.bytes, {
      maxPixels: image.width * image.height,
      pixels: image.width * image.height,
      thumbnails: THUMBNAIL_REQUEST,
    }));
  } catch (error) {
    deps.logger.warn({ imageId, err: messageOf(error) }, 'image kept without thumbnails: they could not be made');
    return;
  }
  if (await storeThumbnails(deps.blobs, imageId, thumbnails)) await deps.db.images.markThumbnails(userId, imageId);
}
