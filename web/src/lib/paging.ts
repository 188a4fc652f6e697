import type { Pagination } from '../api/types.js';

/** Where the next page starts: the cursor when the API pages by cursor, else the offset after what came. */
export type NextPage = { cursor: string } | { offset: number };

export function nextPage(pagination: Pagination, received: number): NextPage | undefined {
  if (typeof pagination.next_cursor === 'string' && pagination.next_cursor !== '') return { cursor: pagination.next_cursor };
  // An answer that carries the field but no cursor is the last page, whatever has_more says.
  if ('next_cursor' in pagination) return undefined;
  if (!pagination.has_more || received === 0) return undefined;
  return { offset: pagination.offset + received };
}

/** Query parameters for a page: the filters, the page size, and where to start. */
export function pageQuery(filters: Record<string, string | undefined>, limit: number, start?: NextPage): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') query.set(name, value);
  query.set('limit', String(limit));
  if (start !== undefined && 'cursor' in start) query.set('cursor', start.cursor);
  else if (start !== undefined && start.offset > 0) query.set('offset', String(start.offset));
  return query;
}
