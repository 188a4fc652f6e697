import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { getCollection } from './read-collections.js';

export interface Membership {
  collection_id: string;
  image_id: string;
  /** False when the image was already in the collection (adding is idempotent). */
  added: boolean;
}

/** Both the collection and the image must be the caller's; another user's image is simply not found. */
export async function addImageToCollection({ deps, ctx, input }: VerbArgs<{ collectionId: string; imageId: string }>): Promise<Membership> {
  await getCollection({ deps, ctx, input });
  const image = await deps.db.images.findLive(ctx.userId, input.imageId);
  if (image === undefined) throw notFound('Image', 'image_id', input.imageId);
  const added = await deps.db.collections.addImage(input.collectionId, input.imageId, deps.clock.now().toISOString());
  return { collection_id: input.collectionId, image_id: input.imageId, added };
}

export async function removeImageFromCollection({
  deps,
  ctx,
  input,
}: VerbArgs<{ collectionId: string; imageId: string }>): Promise<{ collection_id: string; image_id: string; removed: true }> {
  await getCollection({ deps, ctx, input });
  const removed = await deps.db.collections.removeImage(input.collectionId, input.imageId);
  if (!removed) throw notFound('Image', 'image_id', input.imageId);
  return { collection_id: input.collectionId, image_id: input.imageId, removed: true };
}

/** Removes the collection only; its images stay in the gallery. */
export async function deleteCollection({ deps, ctx, input }: VerbArgs<{ collectionId: string }>): Promise<{ id: string; deleted: true }> {
  const deleted = await deps.db.collections.delete(ctx.userId, input.collectionId);
  if (!deleted) throw notFound('Collection', 'collection_id', input.collectionId);
  return { id: input.collectionId, deleted: true };
}
