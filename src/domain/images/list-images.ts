import type { ImageFilter, PageRequest } from '../../ports/database.js';
import { toTimeRange, type RangeInput } from '../analytics/range.js';
import type { VerbArgs } from '../context.js';
import { paginate, type Pagination } from '../pagination.js';
import { toImageRecord, type ImageRecord } from './image-record.js';

export interface ListImagesInput extends PageRequest, RangeInput {
  /** Prompt text to search for; blank means no search. */
  q?: string;
  model?: string;
}

export async function listImages({ deps, ctx, input }: VerbArgs<ListImagesInput>): Promise<{ images: ImageRecord[]; pagination: Pagination }> {
  // The same date rules as analytics, so a day picked in one place means the same images in the other.
  const range = toTimeRange(input);
  const text = input.q?.trim();
  const filter: ImageFilter = { ...range, text: text === '' ? undefined : text, model: input.model };
  const page = await deps.db.images.listLive(ctx.userId, { limit: input.limit, offset: input.offset }, filter);
  const { items, pagination } = paginate(page, input, (row) => toImageRecord(row, deps.blobs));
  return { images: items, pagination };
}
