import type { PageRequest } from '../../ports/database.js';
import type { VerbArgs } from '../context.js';
import { paginate, type Pagination } from '../pagination.js';
import { toImageRecord, type ImageRecord } from './image-record.js';

export async function listImages({ deps, ctx, input }: VerbArgs<PageRequest>): Promise<{ images: ImageRecord[]; pagination: Pagination }> {
  const page = await deps.db.images.listLive(ctx.userId, input);
  const { items, pagination } = paginate(page, input, (row) => toImageRecord(row, deps.blobs));
  return { images: items, pagination };
}
