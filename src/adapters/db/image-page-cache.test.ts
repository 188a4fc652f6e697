import { describe, expect, it } from 'vitest';
import { imageRow } from '../../test-support/image-rows.js';
import { ImagePageCache, pageKey, type ImagePage } from './image-page-cache.js';

const pageOf = (...ids: string[]): ImagePage => ({ items: ids.map((id) => imageRow(id)), total: ids.length, hasMore: false });
const first = pageKey({ limit: 20, offset: 0 }, {});

describe('ImagePageCache', () => {
  it('answers a page only for the version it was read at', () => {
    const cache = new ImagePageCache();
    cache.set('alice', first, 3, pageOf('img_1'));
    expect(cache.get('alice', first, 3)?.items.map((r) => r.id)).toEqual(['img_1']);
    expect(cache.get('alice', first, 4)).toBeUndefined();
    // A stale entry is dropped, not kept for an older version to match again.
    expect(cache.get('alice', first, 3)).toBeUndefined();
  });

  it('keeps users and requests apart', () => {
    const cache = new ImagePageCache();
    cache.set('alice', first, 1, pageOf('img_1'));
    expect(cache.get('bob', first, 1)).toBeUndefined();
    expect(cache.get('alice', pageKey({ limit: 20, offset: 0 }, { model: 'local/procedural' }), 1)).toBeUndefined();
    expect(cache.get('alice', pageKey({ limit: 20, offset: 0, after: { created_at: '2026-11-01T10:00:00.000Z', id: 'img_1' } }, {}), 1)).toBeUndefined();
  });

  it('holds at most its size, dropping the page read longest ago', () => {
    const cache = new ImagePageCache(2);
    cache.set('a', first, 1, pageOf('img_a'));
    cache.set('b', first, 1, pageOf('img_b'));
    expect(cache.get('a', first, 1)).toBeDefined();
    cache.set('c', first, 1, pageOf('img_c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b', first, 1)).toBeUndefined();
    expect(cache.get('a', first, 1)).toBeDefined();
    expect(cache.get('c', first, 1)).toBeDefined();
  });

  it('tells filters from their absence in its key', () => {
    expect(pageKey({ limit: 20, offset: 0 }, { text: 'null' })).not.toBe(pageKey({ limit: 20, offset: 0 }, {}));
    expect(pageKey({ limit: 20, offset: 0 }, { model: undefined })).toBe(first);
  });
});
