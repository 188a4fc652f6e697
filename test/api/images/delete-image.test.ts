import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcileBlobs } from '../../../src/domain/images/reconcile-blobs.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { file, form, photoPng } from '../inputs/images.js';

/** A deleted image keeps its record but not its files, and cannot come back as an input. */
let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

interface Stored {
  id: string;
  r2_url: string;
  thumbnails: Record<string, string> | null;
}

const publicUrls = (image: Stored): string[] => [image.r2_url, ...Object.values(image.thumbnails ?? {})];

async function upload(): Promise<Stored> {
  const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(96, 64), 'room.png') }));
  expect(res.status).toBe(201);
  return json<Stored>(res);
}

describe('deleting an uploaded image', () => {
  it('removes the upload and its thumbnails from storage, and a later edit naming it is a 404', async () => {
    const image = await upload();
    expect(publicUrls(image).length).toBeGreaterThan(1);
    const deleted = await h.call('DELETE', `/api/images/${image.id}`);
    expect(await json(deleted)).toMatchObject({ id: image.id, is_deleted: true, files_removed: true });
    for (const url of publicUrls(image)) expect((await h.fetchPublic(url)).status).toBe(404);
    expect(await h.blobs.keys()).toEqual([]);

    const edit = await h.call('POST', '/api/generate', { prompt: 'a green armchair', model: 'local/procedural', image_ids: [image.id] });
    expect(edit.status).toBe(404);
    expect(await json(edit)).toEqual({ error: 'Image not found', details: { image_ids: image.id }, code: 'NOT_FOUND' });
  });
});

describe('deleting while storage is down', () => {
  it('still deletes, says the files are not yet removed, and the orphan sweep removes them later', async () => {
    const image = await upload();
    const remove = h.deps.blobs.delete.bind(h.deps.blobs);
    h.deps.blobs.delete = () => Promise.reject(new Error('ServiceUnavailable: storage is down'));
    let answer: Response;
    try {
      answer = await h.call('DELETE', `/api/images/${image.id}`);
    } finally {
      h.deps.blobs.delete = remove;
    }
    expect(answer.status).toBe(200);
    expect(await json(answer)).toMatchObject({
      id: image.id,
      deleted: true,
      is_deleted: true,
      files_removed: false,
      message: expect.stringContaining('sweep'),
    });
    expect((await h.call('GET', `/api/images/${image.id}`)).status).toBe(404);
    // The record is marked deleted at once: a second delete finds nothing live.
    expect((await h.call('DELETE', `/api/images/${image.id}`)).status).toBe(404);
    expect((await h.fetchPublic(image.r2_url)).status).toBe(200);

    // An hour on, by the test clock and the wall clock alike: an S3 server stamps objects with its own time.
    const later = new Date(Math.max(h.clock.now().getTime(), Date.now()) + 3_600_000);
    const { orphans } = await reconcileBlobs({ ...h.deps, clock: { now: () => later } }, { graceSeconds: 60 });
    expect(orphans.length).toBe(publicUrls(image).length);
    for (const url of publicUrls(image)) expect((await h.fetchPublic(url)).status).toBe(404);
    expect(await h.blobs.keys()).toEqual([]);
  });
});
