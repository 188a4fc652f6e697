import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { ADMIN_USER_ID } from '../../../src/domain/keys/bootstrap-admin-key.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
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
  it('answers a generated image before its thumbnails are made, then gives it WebP thumbnails of 256 and 768 px on the long side', async () => {
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'local/procedural', width: 1024, height: 512 });
    expect(res.status).toBe(201);
    const image = await json<Record>(res);
    // Made by a job of their own once the image is recorded: the answer does not wait for them.
    expect(image.thumbnails).toBeNull();
    await h.drainJobs();
    const details = await json<Record>(await h.call('GET', `/api/images/${image.id}`));
    expect(details.thumbnails).toEqual({
      small: expect.stringMatching(new RegExp(`/thumbnails/${image.id}-256\\.webp$`)) as unknown,
      medium: expect.stringMatching(new RegExp(`/thumbnails/${image.id}-768\\.webp$`)) as unknown,
    });
    expect(await served(details.thumbnails?.small)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [256, 128] });
    expect(await served(details.thumbnails?.medium)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [768, 384] });
    // The same URLs in the list.
    const listed = await json<{ images: Record[] }>(await h.call('GET', '/api/images'));
    expect(listed.images[0]?.thumbnails).toEqual(details.thumbnails);
  });

  it('shows a listed page cached before the thumbnails existed with them once they do', async () => {
    const image = await json<Record>(await h.call('POST', '/api/generate', { prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64 }));
    const before = await json<{ images: Record[] }>(await h.call('GET', '/api/images'));
    expect(before.images.map((listed) => [listed.id, listed.thumbnails])).toEqual([[image.id, null]]);
    await h.drainJobs();
    const after = await json<{ images: Record[] }>(await h.call('GET', '/api/images'));
    expect(after.images[0]?.thumbnails).not.toBeNull();
  });

  it('keeps a provider PNG whose pixels cannot be decoded, shown from its original without thumbnails', async () => {
    const whole = await photoPng(320, 200);
    // The header is whole, the pixel data cut short: only a decode finds it, as the codec never decoded a kept PNG.
    const broken = new Uint8Array(whole.subarray(0, Math.floor(whole.length / 2)));
    const provider: ImageProvider = { id: 'local', generate: async () => ({ bytes: broken, contentType: 'image/png' }) };
    const own = await createHarness({ workers: false, providers: { local: provider } });
    try {
      const res = await own.call('POST', '/api/generate', { prompt: 'a broken answer', model: 'local/procedural' });
      expect(res.status).toBe(201);
      const image = await json<Record>(res);
      await own.drainJobs();
      expect((await json<Record>(await own.call('GET', `/api/images/${image.id}`))).thumbnails).toBeNull();
      expect(await own.blobs.keys()).toEqual([`generated/${image.id}.png`]);
    } finally {
      await own.close();
    }
  });

  it('gives an upload thumbnails too, a small one keeping its size in the larger', async () => {
    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(400, 300), 'beach.png') }));
    expect(res.status).toBe(201);
    const image = await json<Record>(res);
    expect(await served(image.thumbnails?.small)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [256, 192] });
    expect(await served(image.thumbnails?.medium)).toEqual({ status: 200, type: 'image/webp', format: 'webp', size: [400, 300] });
  });

  it('gives the files of an OpenAI edit and its result thumbnails', async () => {
    const res = await h.call(
      'POST',
      '/v1/images/edits',
      form({ image: file(await photoPng(96, 64), 'room.png'), prompt: 'a green armchair', model: 'local/procedural' }),
    );
    expect(res.status).toBe(200);
    await h.drainJobs();
    // The edit's file is an upload listed with kind=upload, not in the default list.
    const listed = async (kind: string) => (await json<{ images: (Record & { kind: string })[] }>(await h.call('GET', `/api/images?kind=${kind}`))).images;
    const images = [...(await listed('generated')), ...(await listed('upload'))];
    expect(images.map((image) => image.kind).sort()).toEqual(['generated', 'upload']);
    for (const image of images) expect(await served(image.thumbnails?.small)).toMatchObject({ status: 200, type: 'image/webp', size: [96, 64] });
  });

  it('removes them with the original when the image is deleted (its record is kept)', async () => {
    const image = await json<Record>(await h.call('POST', '/api/generate', { prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64 }));
    // Its thumbnails are made after its record, by a job of their own.
    await h.deps.queue.drain();
    expect(await h.blobs.keys()).toEqual([`generated/${image.id}.png`, `thumbnails/${image.id}-256.webp`, `thumbnails/${image.id}-768.webp`]);
    expect((await h.call('DELETE', `/api/images/${image.id}`)).status).toBe(200);
    expect(await h.blobs.keys()).toEqual([]);
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
