import type { ImageFilter, ImageKind, PageRequest } from '../../ports/database.js';
import { toTimeRange, type RangeInput } from '../analytics/range.js';
import type { VerbArgs } from '../context.js';
import { invalidParameter } from '../errors.js';
import type { CursorPagination } from '../pagination.js';
import { decodeCursor, encodeCursor } from './image-cursor.js';
import { toImageRecord, type ImageRecord } from './image-record.js';

export interface ListImagesInput extends PageRequest, RangeInput {
  /** `pagination.next_cursor` of the page before: keyset paging, flat cost however deep. */
  cursor?: string;
  /** Prompt text to search for; blank means no search. */
  q?: string;
  model?: string;
  kind?: ImageKind;
  /** Children of this image: what was made from it. */
  derivedFrom?: string;
}

export async function listImages({ deps, ctx, input }: VerbArgs<ListImagesInput>): Promise<{ images: ImageRecord[]; pagination: CursorPagination }> {
  // The same date rules as analytics, so a day picked in one place means the same images in the other.
  const range = toTimeRange(input);
  const text = input.q?.trim();
  const filter: ImageFilter = { ...range, text: text === '' ? undefined : text, model: input.model, kind: input.kind, derived_from: input.derivedFrom };
  if (input.cursor !== undefined && input.offset > 0) throw invalidParameter('offset', 'send either cursor or offset, not both: a cursor already says where the page starts');
  const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
  const page = await deps.db.images.listLive(ctx.userId, { limit: input.limit, offset: input.offset, after }, filter);
  const last = page.items.at(-1);
  const images = page.items.map((row) => toImageRecord(row, deps.blobs));
  return {
    images,
    pagination: {
      limit: input.limit,
      offset: after === undefined ? input.offset : 0,
      total: page.total,
      has_more: page.hasMore,
      next_cursor: page.hasMore && last !== undefined ? encodeCursor(last) : null,
    },
  };
}
