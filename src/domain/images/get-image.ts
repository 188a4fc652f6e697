import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { toImageRecord, type ImageRecord } from './image-record.js';

/** A soft-deleted image, like another user's, is not found. */
export async function getImage({ deps, ctx, input }: VerbArgs<{ imageId: string }>): Promise<ImageRecord> {
  const row = await deps.db.images.findLive(ctx.userId, input.imageId);
  if (row === undefined) throw notFound('Image', 'image_id', input.imageId);
  return toImageRecord(row, deps.blobs);
}
