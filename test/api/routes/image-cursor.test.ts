import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

interface ImageList {
  images: { id: string }[];
  pagination: { limit: number; offset: number; total: number; has_more: boolean; next_cursor: string | null };
}

async function makeImages(count: number, sameTime = false): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    if (!sameTime) h.clock.advance(1000);
    const res = await h.call('POST', '/api/generate', { prompt: `cursor image ${i}`, width: 64, height: 64 });
    ids.push(String((await json(res)).id));
  }
  return ids;
}

async function walk(limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = cursor === null ? `limit=${limit}` : `limit=${limit}&cursor=${cursor}`;
    const page: ImageList = await json<ImageList>(await h.call('GET', `/api/images?${query}`));
    ids.push(...page.images.map((image) => image.id));
    expect(page.pagination.has_more).toBe(page.pagination.next_cursor !== null);
    cursor = page.pagination.next_cursor;
    pages += 1;
  } while (cursor !== null);
  return { ids, pages };
}

describe('keyset paging with cursor', () => {
  it('walks every image once, newest first, with an exact total on each page', async () => {
    const ids = await makeImages(7);
    const { ids: seen, pages } = await walk(3);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
    const first = await json<ImageList>(await h.call('GET', '/api/images?limit=3'));
    expect(first.pagination.total).toBe(7);
  });

  it('orders images made in the same millisecond by id, so none is skipped or repeated', async () => {
    const ids = await makeImages(5, true);
    const { ids: seen } = await walk(2);
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('neither skips nor repeats when images are added or deleted between pages', async () => {
    const ids = await makeImages(6);
    const first = await json<ImageList>(await h.call('GET', '/api/images?limit=3'));
    await makeImages(2);
    expect((await h.call('DELETE', `/api/images/${ids[1]}`)).status).toBe(200);
    const second = await json<ImageList>(await h.call('GET', `/api/images?limit=3&cursor=${first.pagination.next_cursor}`));
    expect(second.images.map((image) => image.id)).toEqual([ids[2], ids[0]]);
    expect(second.pagination).toMatchObject({ total: 7, has_more: false, next_cursor: null, offset: 0 });
  });

  it('keeps search and filters on every page', async () => {
    await makeImages(4);
    const page = await json<ImageList>(await h.call('GET', '/api/images?limit=1&q=IMAGE%203'));
    expect(page.images).toHaveLength(1);
    expect(page.pagination).toMatchObject({ total: 1, has_more: false, next_cursor: null });
  });

  it.each(['not-a-cursor', 'WzEsMl0', '%22%22', 'x'.repeat(600)])('refuses a cursor it did not give out (%s) with a 400', async (cursor) => {
    const body = await expectInvalid(await h.call('GET', `/api/images?cursor=${cursor}`), 'Invalid cursor');
    expect(body.details).toMatchObject({ message: expect.stringContaining('pagination.next_cursor') });
  });

  // PostgreSQL text cannot hold U+0000 (and a lone surrogate has no UTF-8): such a cursor was a 500 there.
  it.each([
    ['a NUL in its id', ['2026-11-20T10:00:00.000Z', 'img_\u0000']],
    ['a lone surrogate in its id', ['2026-11-20T10:00:00.000Z', 'img_\ud800']],
    ['a NUL in its time', ['2026-11-20T10:00:00.000Z\u0000', 'img_1']],
  ])('refuses a cursor that decodes to %s with a 400 saying the cursor is not valid', async (_what, position) => {
    await makeImages(2);
    const cursor = btoa(JSON.stringify(position)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const body = await expectInvalid(await h.call('GET', `/api/images?cursor=${cursor}`), 'Invalid cursor');
    expect(body.details).toMatchObject({ message: expect.stringContaining('pagination.next_cursor') });
  });

  it('refuses a cursor together with an offset', async () => {
    await makeImages(3);
    const { pagination } = await json<ImageList>(await h.call('GET', '/api/images?limit=1'));
    await expectInvalid(await h.call('GET', `/api/images?cursor=${pagination.next_cursor}&offset=2`), 'Invalid offset');
  });
});
