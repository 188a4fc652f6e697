import type { Page, PageRequest } from '../ports/database.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  has_more: boolean;
}

/** Lists that page by cursor (images) also say where the next page starts, or null on the last page. */
export interface CursorPagination extends Pagination {
  next_cursor: string | null;
}

export function paginate<T, R>(page: Page<T>, request: PageRequest, map: (item: T) => R): { items: R[]; pagination: Pagination } {
  return {
    items: page.items.map(map),
    pagination: {
      limit: request.limit,
      offset: request.offset,
      total: page.total,
      has_more: request.offset + page.items.length < page.total,
    },
  };
}
