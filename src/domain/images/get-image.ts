import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { toImageRecord, type ImageRecord } from './image-record.js';

/** Children shown with one image; `GET /api/images?derived_from=` pages through them all. */
const CHILDREN_SHOWN = 100;

/** A soft-deleted image, like another user's, is not found. With its children, so a client can walk lineage both ways. */
export async function getImage({ deps, ctx, input }: VerbArgs<{ imageId: string }>): Promise<ImageRecord & { derived_image_ids: string[] }> {
  const row = await deps.db.images.findLive(ctx.userId, input.imageId);
  if (row === undefined) throw notFound('Image', 'image_id', input.imageId);
  return { ...toImageRecord(row, deps.blobs), derived_image_ids: await deps.db.images.derivedIds(ctx.userId, row.id, CHILDREN_SHOWN) };
}
