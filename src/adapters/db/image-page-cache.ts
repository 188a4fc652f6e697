import type { ImageFilter, ImagePosition, ImageRow, Page, PageRequest } from '../../ports/database.js';

export type ImagePage = Page<ImageRow> & { hasMore: boolean };

/** Pages held per process: a few per active user (first page, a filter or two); each is at most 101 rows. */
const MAX_PAGES = 256;

/**
 * Recently read gallery pages, each valid for one version of its user's gallery. The version is raised in the
 * same transaction as every write to the user's images (image-writes.ts), and read with the page's total from the
 * counter row, so a page served from here is exactly what the query would return: a write by any process, on
 * SQLite or PostgreSQL, changes the version and the next read queries again. What it saves is the page query
 * and building its rows: a repeated first page (a gallery polled for new images) costs one primary-key read.
 */
export class ImagePageCache {
  private readonly pages = new Map<string, { version: number; page: ImagePage }>();

  constructor(private readonly maxPages = MAX_PAGES) {}

  get(userId: string, key: string, version: number): ImagePage | undefined {
    const id = `${userId}\u0000${key}`;
    const entry = this.pages.get(id);
    if (entry === undefined) return undefined;
    this.pages.delete(id);
    if (entry.version !== version) return undefined;
    // Re-inserted: the Map's order is the recency order, the oldest goes first when full.
    this.pages.set(id, entry);
    return entry.page;
  }

  set(userId: string, key: string, version: number, page: ImagePage): void {
    const id = `${userId}\u0000${key}`;
    this.pages.delete(id);
    if (this.pages.size >= this.maxPages) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
    for (const row of page.items) freezeJson(row);
    this.pages.set(id, { version, page: Object.freeze(page) });
  }

  get size(): number {
    return this.pages.size;
  }
}

/** The request's page and filter as one key; undefined fields are left out so equal requests share it. */
export function pageKey(page: PageRequest & { after?: ImagePosition }, filter: ImageFilter): string {
  return JSON.stringify([
    page.limit,
    page.offset,
    page.after?.created_at ?? null,
    page.after?.id ?? null,
    filter.text ?? null,
    filter.model ?? null,
    filter.from ?? null,
    filter.to ?? null,
    filter.kind ?? null,
    filter.derived_from ?? null,
  ]);
}

/** Rows are shared by every request that reads the page: frozen, so no caller can change another's answer. */
function freezeJson(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  for (const child of Object.values(value)) freezeJson(child);
  Object.freeze(value);
}
