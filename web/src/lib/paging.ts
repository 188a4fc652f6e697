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

/** A page's own query parameters: its size, then where it starts (the first page says nothing). */
export interface PageParams {
  limit: number;
  cursor?: string;
  offset?: number;
}

export function pageParams(limit: number, start?: NextPage): PageParams {
  if (start !== undefined && 'cursor' in start) return { limit, cursor: start.cursor };
  if (start !== undefined && start.offset > 0) return { limit, offset: start.offset };
  return { limit };
}

/** A filter's value as a query parameter: an empty one is not sent. */
export const filterValue = (value: string): string | undefined => (value === '' ? undefined : value);

/** Query parameters for a page: the filters, the page size, and where to start (as the API client writes them). */
export function pageQuery(filters: Record<string, string | undefined>, limit: number, start?: NextPage): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') query.set(name, value);
  for (const [name, value] of Object.entries(pageParams(limit, start))) query.set(name, String(value));
  return query;
}
