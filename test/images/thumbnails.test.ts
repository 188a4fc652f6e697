import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_USER_ID } from '../../src/domain/keys/bootstrap-admin-key.js';
import { createHarness, json, type Harness } from '../../src/test-support/harness.js';
import { file, form, photoPng } from '../inputs/images.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness({ workers: false });
});
afterEach(() => h.close());

interface Record {
  id: string;
  width: number;
  height: number;
  thumbnails: { small: string; medium: string } | null;
}

/** What a browser gets from a thumbnail URL: status, type and the picture's size. */
async function served(url: string | undefined): Promise<{ status: number; type: string | null; format?: string; size?: number[] }> {
  const res = await h.fetchPublic(String(url));
  if (res.status !== 200) return { status: res.status, type: res.headers.get('Content-Type') };
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { status: res.status, type: res.headers.get('Content-Type'), format: meta.format, size: [meta.width ?? 0, meta.height ?? 0] };
}

describe('thumbnails of gallery images', () => {
  it('gives a generated image WebP thumbnails of 256 and 768 px on the long side, served from their URLs', async () => {
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'local/procedural', width: 1024, height: 512 });
    expect(res.status).toBe(201);
    const image = await json<Record>(res);
    expect(image.thumbnails).toEqual({
      small: expect.stringMatching(new RegExp(`/thumbnails/${image.id}-256\\.webp$`)) as unknown,
      medium: expect.stringMatching(new RegExp(`/thumbnails/${image.id}-768\\.webp$`)) as unknown,
    });
    expect(await served(image.thumbnails?.small)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [256, 128] });
    expect(await served(image.thumbnails?.medium)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [768, 384] });
    // The same URLs in the list and the details.
    const listed = await json<{ images: Record[] }>(await h.call('GET', '/api/images'));
    expect(listed.images[0]?.thumbnails).toEqual(image.thumbnails);
    expect((await json<Record>(await h.call('GET', `/api/images/${image.id}`))).thumbnails).toEqual(image.thumbnails);
  });

  it('gives an upload thumbnails too, a small one keeping its size in the larger', async () => {
    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(400, 300), 'beach.png') }));
    expect(res.status).toBe(201);
    const image = await json<Record>(res);
    expect(await served(image.thumbnails?.small)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [256, 192] });
    expect(await served(image.thumbnails?.medium)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [400, 300] });
  });

  it('gives the files of an OpenAI edit and its result thumbnails', async () => {
    const res = await h.call('POST', '/v1/images/edits', form({ image: file(await photoPng(96, 64), 'room.png'), prompt: 'a green armchair', model: 'local/procedural' }));
    expect(res.status).toBe(200);
    const { images } = await json<{ images: (Record & { kind: string })[] }>(await h.call('GET', '/api/images'));
    expect(images.map((image) => image.kind).sort()).toEqual(['generated', 'upload']);
    for (const image of images) expect(await served(image.thumbnails?.small)).toMatchObject({ status: 200, type: 'image/webp', size: [96, 64] });
  });

  it('keeps them with a soft-deleted image, as its original is kept', async () => {
    const image = await json<Record>(await h.call('POST', '/api/generate', { prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64 }));
    expect((await h.call('DELETE', `/api/images/${image.id}`)).status).toBe(200);
    expect(await h.blobs.keys()).toEqual([`generated/${image.id}.png`, `thumbnails/${image.id}-256.webp`, `thumbnails/${image.id}-768.webp`]);
  });

  it('removes them with the upload whose record could not be written', async () => {
    h.deps.db.images.insert = async () => Promise.reject(new Error('disk full'));
    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(64, 48), 'a.png') }));
    expect(res.status).toBe(500);
    expect(await h.blobs.keys()).toEqual([]);
  });

  it('says null for an image recorded without them (stored before they existed)', async () => {
    await h.deps.db.images.insert({
      id: 'img_old',
      user_id: ADMIN_USER_ID,
      prompt: 'from before thumbnails',
      model: 'local/procedural',
      r2_key: 'generated/img_old.png',
      width: 64,
      height: 64,
      cost: 0,
      is_deleted: false,
      created_at: '2026-11-01T00:00:00.000Z',
      deleted_at: null,
      template_id: null,
      metadata: null,
      parameters: {},
    });
    const listed = await json<{ images: Record[] }>(await h.call('GET', '/api/images'));
    expect(listed.images.map((image) => image.thumbnails)).toEqual([null]);
  });
});
