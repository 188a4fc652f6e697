import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness, OBJECTS_PER_IMAGE } from '../../../src/test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

async function makeImages(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    h.clock.advance(1000);
    const res = await h.call('POST', '/api/generate', { prompt: `image number ${i}`, model: 'local/procedural', width: 64, height: 64 });
    ids.push(String((await json(res)).id));
  }
  return ids;
}

interface ImageList {
  images: { id: string }[];
  pagination: { limit: number; offset: number; total: number; has_more: boolean; next_cursor: string | null };
}

describe('GET /api/images', () => {
  it('lists newest first with the spec pagination object', async () => {
    const ids = await makeImages(3);
    const body = await json<ImageList>(await h.call('GET', '/api/images'));
    expect(body.images.map((image) => image.id)).toEqual([...ids].reverse());
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 3, has_more: false, next_cursor: null });
  });

  it('pages with limit and offset', async () => {
    const ids = await makeImages(5);
    const body = await json<ImageList>(await h.call('GET', '/api/images?limit=2&offset=2'));
    expect(body.images.map((image) => image.id)).toEqual([ids[2], ids[1]]);
    expect(body.pagination).toEqual({ limit: 2, offset: 2, total: 5, has_more: true, next_cursor: expect.any(String) });
  });

  it('refuses a limit above 100, saying the range', async () => {
    const body = await expectInvalid(await h.call('GET', '/api/images?limit=500'), 'Invalid limit');
    expect(body.details).toMatchObject({ message: 'limit must be a whole number from 1 to 100 (got "500")' });
  });

  it.each([
    'limit=abc',
    'limit=-1',
    'limit=0',
    'offset=-5',
    'offset=1.5',
    'limit=',
    'limit=1&limit=2',
    'limit=99999999999999999999',
    'offset=9223372036854775808',
    'offset=1e400',
    'offset=1000000001',
  ])('refuses %s with a 400 naming the parameter', async (query) => {
    await expectInvalid(await h.call('GET', `/api/images?${query}`), query.startsWith('limit') ? 'Invalid limit' : 'Invalid offset');
  });
});

describe('GET /api/images search and filters', () => {
  async function generate(prompt: string, at: string, model = 'local/procedural'): Promise<string> {
    h.clock.set(at);
    const res = await h.call('POST', '/api/generate', { prompt, model, width: 64, height: 64 });
    expect(res.status).toBe(201);
    return String((await json(res)).id);
  }
  const ids = async (query: string): Promise<string[]> => {
    const res = await h.call('GET', `/api/images?${query}`);
    expect(res.status).toBe(200);
    return (await json<ImageList>(res)).images.map((image) => image.id);
  };

  it('finds prompts containing q, ignoring case, and counts only the matches', async () => {
    const fox = await generate('A Red FOX at dawn', '2026-11-01T10:00:00.000Z');
    await generate('a blue whale', '2026-11-01T11:00:00.000Z');
    const foxes = await generate('two foxes in snow', '2026-11-01T12:00:00.000Z');
    expect(await ids('q=fox')).toEqual([foxes, fox]);
    expect(await ids('q=red%20fox')).toEqual([fox]);
    expect((await json<ImageList>(await h.call('GET', '/api/images?q=FOX&limit=1'))).pagination).toEqual({
      limit: 1,
      offset: 0,
      total: 2,
      has_more: true,
      next_cursor: expect.any(String),
    });
  });

  it('matches % and _ literally rather than as wildcards', async () => {
    const percent = await generate('a 100% orange sky', '2026-11-01T10:00:00.000Z');
    const underscore = await generate('snake_case river', '2026-11-01T11:00:00.000Z');
    await generate('snakes case river', '2026-11-01T12:00:00.000Z');
    expect(await ids('q=100%25')).toEqual([percent]);
    expect(await ids('q=%25')).toEqual([percent]);
    expect(await ids('q=e_c')).toEqual([underscore]);
    expect(await ids('q=%5C')).toEqual([]);
  });

  it('treats a blank q as no search', async () => {
    const one = await generate('a quiet harbour', '2026-11-01T10:00:00.000Z');
    expect(await ids('q=%20%20')).toEqual([one]);
  });

  it('filters by model', async () => {
    const local = await generate('a lighthouse', '2026-11-01T10:00:00.000Z');
    expect(await ids('model=local%2Fprocedural')).toEqual([local]);
    expect(await ids('model=openai%2Fdall-e-3')).toEqual([]);
  });

  it('filters by date with the analytics rules: from inclusive, a date `to` includes its whole day', async () => {
    await generate('day one lake', '2026-11-01T23:59:59.000Z');
    const two = await generate('day two lake', '2026-11-02T00:00:00.000Z');
    const twoLate = await generate('day two lake, late', '2026-11-02T23:59:59.999Z');
    await generate('day three lake', '2026-11-03T00:00:00.000Z');
    expect(await ids('from=2026-11-02&to=2026-11-02')).toEqual([twoLate, two]);
    expect(await ids('from=2026-11-02T00:00:00Z&to=2026-11-02T12:00:00Z')).toEqual([two]);
    expect(await ids('q=late&from=2026-11-02')).toEqual([twoLate]);
  });

  it('refuses an impossible date or a range that ends before it starts, naming the parameter', async () => {
    await expectInvalid(await h.call('GET', '/api/images?from=2026-02-31'), 'Invalid from');
    await expectInvalid(await h.call('GET', '/api/images?from=2026-11-03&to=2026-11-01'), 'Invalid to');
  });

  it('refuses a repeated or overlong q', async () => {
    await expectInvalid(await h.call('GET', '/api/images?q=a&q=b'), 'Invalid q');
    await expectInvalid(await h.call('GET', `/api/images?q=${'x'.repeat(201)}`), 'Invalid q');
  });
});

describe('GET /api/images/:id', () => {
  it('returns the image record', async () => {
    const [id] = await makeImages(1);
    const res = await h.call('GET', `/api/images/${id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id, is_deleted: false, width: 64 });
  });

  it('answers an unknown id with the spec 404 body', async () => {
    const res = await h.call('GET', '/api/images/img_missing');
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ error: 'Image not found', details: { image_id: 'img_missing' }, code: 'NOT_FOUND' });
  });
});

describe('DELETE /api/images/:id', () => {
  it('soft-deletes: 200, then hidden from get and list, still counted in cost analytics, its files removed', async () => {
    const [keep, drop] = await makeImages(2);
    // Thumbnails are made by a job after each answer: both images have theirs before the delete.
    await h.drainJobs();
    const before = await json<{ r2_url: string; thumbnails: Record<string, string> | null }>(await h.call('GET', `/api/images/${drop}`));
    const urls = [before.r2_url, ...Object.values(before.thumbnails ?? {})];
    for (const url of urls) expect((await h.fetchPublic(url)).status).toBe(200);

    const res = await h.call('DELETE', `/api/images/${drop}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      id: drop,
      deleted: true,
      is_deleted: true,
      deleted_at: expect.any(String),
      files_removed: true,
      message: expect.stringContaining('record is kept'),
    });

    expect((await h.call('GET', `/api/images/${drop}`)).status).toBe(404);
    const list = await json<ImageList>(await h.call('GET', '/api/images'));
    expect(list.images.map((image) => image.id)).toEqual([keep]);
    expect(list.pagination.total).toBe(1);
    expect((await json(await h.call('GET', '/api/analytics/costs'))).total_images).toBe(2);
    // The deleted image's file and thumbnails no longer answer at their public URLs; the other image keeps its own.
    for (const url of urls) expect((await h.fetchPublic(url)).status).toBe(404);
    expect(await h.blobs.keys()).toHaveLength(OBJECTS_PER_IMAGE);
    expect((await h.blobs.keys()).every((key) => key.includes(String(keep)))).toBe(true);
  });

  it('answers a second delete with 404', async () => {
    const [id] = await makeImages(1);
    await h.call('DELETE', `/api/images/${id}`);
    expect((await h.call('DELETE', `/api/images/${id}`)).status).toBe(404);
  });
});
