import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';

export interface DeletedImage {
  id: string;
  deleted: true;
  deleted_at: string;
}

/** Soft delete: the record and its object stay (cost analytics still count it); list and get stop showing it. */
export async function deleteImage({ deps, ctx, input }: VerbArgs<{ imageId: string }>): Promise<DeletedImage> {
  const at = deps.clock.now().toISOString();
  const deleted = await deps.db.images.softDelete(ctx.userId, input.imageId, at);
  if (!deleted) throw notFound('Image', 'image_id', input.imageId);
  return { id: input.imageId, deleted: true, deleted_at: at };
}
