import type { PageRequest } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { notFound } from '../errors.js';
import { toImageRecord, type ImageRecord } from '../images/image-record.js';
import { paginate, type Pagination } from '../pagination.js';
import { toCollectionRecord, type CollectionRecord } from './collection-record.js';

export async function listCollections({ deps, ctx, input }: VerbArgs<PageRequest>): Promise<{ collections: CollectionRecord[]; pagination: Pagination }> {
  const { items, pagination } = paginate(await deps.db.collections.list(ctx.userId, input), input, (row) => toCollectionRecord(row, deps.blobs));
  return { collections: items, pagination };
}

export async function getCollection({ deps, ctx, input }: VerbArgs<{ collectionId: string }>): Promise<CollectionRecord> {
  const row = await deps.db.collections.find(ctx.userId, input.collectionId);
  if (row === undefined) throw notFound('Collection', 'collection_id', input.collectionId);
  return toCollectionRecord(row, deps.blobs);
}

export async function listCollectionImages({
  deps,
  ctx,
  input,
}: VerbArgs<PageRequest & { collectionId: string }>): Promise<{ collection_id: string; images: ImageRecord[]; pagination: Pagination }> {
  await getCollection({ deps, ctx, input });
  const page = await deps.db.collections.listImages(ctx.userId, input.collectionId, input);
  const { items, pagination } = paginate(page, input, (row) => toImageRecord(row, deps.blobs));
  return { collection_id: input.collectionId, images: items, pagination };
}
