import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const newImage = async (prompt = 'a small boat') =>
  String((await json(await h.call('POST', '/api/generate', { prompt, model: 'local/procedural', width: 64, height: 64 }))).id);
const newCollection = async (name = 'Moodboard') => json(await h.call('POST', '/api/collections', { name, description: 'spring ideas' }));

describe('collections', () => {
  it('creates a collection: 201 with id coll_..., name, description', async () => {
    const res = await h.call('POST', '/api/collections', { name: '  Moodboard ', description: 'spring ideas' });
    expect(res.status).toBe(201);
    const collection = await json(res);
    expect(collection).toMatchObject({ name: 'Moodboard', description: 'spring ideas', image_count: 0, user_id: 'admin' });
    expect(collection.id).toMatch(/^coll_/);
  });

  it('shows the image added last as the cover, and none once it is empty or its images are deleted', async () => {
    const collection = await newCollection();
    expect(collection.cover_image_url).toBeNull();
    const first = await newImage('a boat');
    const second = await newImage('a harbour');
    for (const id of [first, second]) {
      await h.call('POST', `/api/collections/${String(collection.id)}/images`, { image_id: id });
      h.clock.advance(1000);
    }
    const cover = async () => (await json(await h.call('GET', `/api/collections/${String(collection.id)}`))).cover_image_url;
    const urlOf = async (id: string) => (await json(await h.call('GET', `/api/images/${id}`))).r2_url;
    const [firstUrl, secondUrl] = [await urlOf(first), await urlOf(second)];
    expect(await cover()).toBe(secondUrl);
    await h.call('DELETE', `/api/images/${second}`);
    expect(await cover()).toBe(firstUrl);
    const listed = await json<{ collections: { cover_image_url: string | null }[] }>(await h.call('GET', '/api/collections'));
    expect(listed.collections[0]?.cover_image_url).toBe(firstUrl);
  });

  it('defaults a missing description to an empty string', async () => {
    expect(await json(await h.call('POST', '/api/collections', { name: 'x' }))).toMatchObject({ description: '' });
  });

  it.each([
    [{ description: 'no name' }, 'Invalid name'],
    [{ name: '   ' }, 'Invalid name'],
    [{ name: 'x'.repeat(101) }, 'Invalid name'],
    [{ name: 'ok', description: 'y'.repeat(1001) }, 'Invalid description'],
    [{ name: 7 }, 'Invalid name'],
  ])('refuses %j', async (body, error) => {
    await expectInvalid(await h.call('POST', '/api/collections', body), error);
  });

  it('lists collections newest first with pagination', async () => {
    await newCollection('first');
    h.clock.advance(1000);
    await newCollection('second');
    const body = await json<{ collections: { name: string }[]; pagination: unknown }>(await h.call('GET', '/api/collections'));
    expect(body.collections.map((c) => c.name)).toEqual(['second', 'first']);
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 2, has_more: false });
  });

  it('adds images (201, then 200 when already there), lists them, and counts them', async () => {
    const collection = await newCollection();
    const a = await newImage('first picture');
    h.clock.advance(1000);
    const b = await newImage('second picture');

    const added = await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: a });
    expect(added.status).toBe(201);
    expect(await json(added)).toEqual({ collection_id: collection.id, image_id: a, added: true });
    h.clock.advance(1000);
    await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: b });
    const again = await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: a });
    expect(again.status).toBe(200);
    expect((await json(again)).added).toBe(false);

    const list = await json<{ images: { id: string }[]; pagination: { total: number } }>(await h.call('GET', `/api/collections/${collection.id}/images`));
    expect(list.images.map((image) => image.id)).toEqual([b, a]);
    expect(list.pagination.total).toBe(2);
    expect((await json(await h.call('GET', `/api/collections/${collection.id}`))).image_count).toBe(2);
  });

  it('hides soft-deleted images from the collection', async () => {
    const collection = await newCollection();
    const id = await newImage();
    await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: id });
    await h.call('DELETE', `/api/images/${id}`);
    expect((await json(await h.call('GET', `/api/collections/${collection.id}/images`))).images).toEqual([]);
    expect((await json(await h.call('GET', `/api/collections/${collection.id}`))).image_count).toBe(0);
  });

  it('refuses to add a missing or deleted image with the spec 404', async () => {
    const collection = await newCollection();
    const res = await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: 'img_missing' });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Image not found', details: { image_id: 'img_missing' } });
  });

  it('removes an image from a collection without deleting it', async () => {
    const collection = await newCollection();
    const id = await newImage();
    await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: id });
    expect((await h.call('DELETE', `/api/collections/${collection.id}/images/${id}`)).status).toBe(200);
    expect((await json(await h.call('GET', `/api/collections/${collection.id}/images`))).images).toEqual([]);
    expect((await h.call('GET', `/api/images/${id}`)).status).toBe(200);
  });

  it('deletes a collection and never its images', async () => {
    const collection = await newCollection();
    const id = await newImage();
    await h.call('POST', `/api/collections/${collection.id}/images`, { image_id: id });
    const res = await h.call('DELETE', `/api/collections/${collection.id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ id: collection.id, deleted: true });
    expect((await h.call('GET', `/api/collections/${collection.id}`)).status).toBe(404);
    expect((await h.call('GET', `/api/images/${id}`)).status).toBe(200);
  });

  it.each([
    ['GET', '/api/collections/coll_missing'],
    ['GET', '/api/collections/coll_missing/images'],
    ['DELETE', '/api/collections/coll_missing'],
  ])('answers %s %s with 404 Collection not found', async (method, path) => {
    const res = await h.call(method, path);
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Collection not found', details: { collection_id: 'coll_missing' }, code: 'NOT_FOUND' });
  });
});
