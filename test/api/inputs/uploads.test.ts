import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { file, form, photoPng } from './images.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const upload = (body: FormData, headers: Record<string, string> = {}) => h.call('POST', '/api/uploads', body, headers);

/** A PNG signature and IHDR that claim a size, and nothing else: what a decompression bomb's header looks like. */
function pngHeaderClaiming(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

describe('POST /api/uploads', () => {
  it('stores a PNG byte for byte as a gallery image of kind upload, costing nothing', async () => {
    const png = await photoPng(64, 48);
    const res = await upload(form({ file: file(png, 'holiday/beach.png') }));
    expect(res.status).toBe(201);
    const image = await json(res);
    expect(image).toMatchObject({
      kind: 'upload',
      model: 'upload',
      prompt: 'beach.png',
      cost: 0,
      width: 64,
      height: 48,
      source_image_ids: [],
      is_deleted: false,
    });
    expect(image.r2_key).toBe(`uploads/${String(image.id)}.png`);
    const stored = await h.blobs.get(String(image.r2_key));
    expect(stored?.contentType).toBe('image/png');
    expect(Buffer.from(stored?.bytes ?? []).equals(Buffer.from(png))).toBe(true);
  });

  it('keeps a JPEG and a WebP in their own format, served with their own content type', async () => {
    const jpeg = new Uint8Array(
      await sharp(await photoPng(40, 30))
        .jpeg()
        .toBuffer(),
    );
    const webp = new Uint8Array(
      await sharp(await photoPng(40, 30))
        .webp()
        .toBuffer(),
    );
    for (const [bytes, extension, type] of [
      [jpeg, 'jpg', 'image/jpeg'],
      [webp, 'webp', 'image/webp'],
    ] as const) {
      const image = await json(await upload(form({ file: file(bytes, `photo.${extension}`, type) })));
      expect(image.r2_key).toBe(`uploads/${String(image.id)}.${extension}`);
      const served = await h.fetchPublic(String(image.r2_url));
      expect(served.headers.get('Content-Type')).toBe(type);
    }
  });

  it('lists uploads apart with ?kind=, deletes them like any image, and hides them from another user', async () => {
    const uploaded = await json(await upload(form({ file: file(await photoPng(32, 32), 'a.png') })));
    const generated = await json(await h.call('POST', '/api/generate', { prompt: 'a red barn', model: 'local/procedural', width: 64, height: 64 }));
    const ids = async (query: string) => (await json<{ images: { id: string }[] }>(await h.call('GET', `/api/images${query}`))).images.map((image) => image.id);
    expect(await ids('?kind=upload')).toEqual([uploaded.id]);
    expect(await ids('?kind=generated')).toEqual([generated.id]);
    expect(generated.kind).toBe('generated');

    const bob = await createKeyFor(h, { name: 'bob', user_id: 'bob' });
    const asBob = await h.app.request(`/api/images/${String(uploaded.id)}`, { headers: { Authorization: `Bearer ${bob.key}` } });
    expect(asBob.status).toBe(404);

    expect((await h.call('DELETE', `/api/images/${String(uploaded.id)}`)).status).toBe(200);
    expect(await ids('?kind=upload')).toEqual([]);
  });

  it('does not count uploads as usage or cost', async () => {
    await upload(form({ file: file(await photoPng(32, 32), 'a.png') }));
    const usage = await json<{ total_images: number }>(await h.call('GET', '/api/analytics/usage'));
    expect(usage.total_images).toBe(0);
  });
});

describe('POST /api/uploads refuses bad files with a 4xx and stores nothing', () => {
  const refusals: [string, () => Promise<FormData>, number, string][] = [
    ['a text file', async () => form({ file: file(new TextEncoder().encode('hello, not an image'), 'notes.png') }), 400, 'not a PNG, JPEG or WebP'],
    [
      'a GIF',
      async () => form({ file: file(new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000'), 'a.gif', 'image/gif') }),
      400,
      'not a PNG, JPEG or WebP',
    ],
    ['a header claiming 50,000 pixels a side', async () => form({ file: file(pngHeaderClaiming(50_000, 50_000), 'bomb.png') }), 400, 'scale it down'],
    ['a PNG cut short after its header', async () => form({ file: file((await photoPng(64, 64)).slice(0, 60), 'cut.png') }), 400, 'could not be decoded'],
    ['an empty file', async () => form({ file: file(new Uint8Array(0), 'empty.png') }), 400, 'empty'],
  ];
  it.each(refusals)('%s', async (_name, body, status, words) => {
    const res = await upload(await body());
    expect(res.status).toBe(status);
    const error = await json<{ details: { field: string; message: string } }>(res);
    expect(error.details.field).toBe('file');
    expect(error.details.message).toContain(words);
    expect(await h.blobs.keys()).toEqual([]);
    expect((await json<{ pagination: { total: number } }>(await h.call('GET', '/api/images'))).pagination.total).toBe(0);
  });

  it('answers 413 for a file over 50 MB', async () => {
    const big = new Uint8Array(50 * 1024 * 1024 + 10);
    big.set(await photoPng(8, 8));
    const res = await upload(form({ file: file(big, 'big.png') }));
    expect(res.status).toBe(413);
    expect((await json(res)).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await h.blobs.keys()).toEqual([]);
  });

  it('asks for multipart when sent JSON, and for the file field when it is missing', async () => {
    const asJson = await h.call('POST', '/api/uploads', { file: 'aGVsbG8=' });
    expect(asJson.status).toBe(400);
    expect(JSON.stringify(await json(asJson))).toContain('multipart/form-data');
    await expectInvalid(await upload(form({ image: file(await photoPng(8, 8), 'a.png') })), 'Invalid file');
  });
});

describe('POST /api/uploads with an Idempotency-Key', () => {
  it('replays the first answer for the same file sent again with a fresh multipart boundary, and refuses another file under the key', async () => {
    const png = await photoPng(24, 24);
    const first = await upload(form({ file: file(png, 'a.png') }), { 'Idempotency-Key': 'upload-1' });
    const again = await upload(form({ file: file(png, 'a.png') }), { 'Idempotency-Key': 'upload-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    const id = String((await json(first)).id);
    expect((await json(again)).id).toBe(id);
    const other = await upload(form({ file: file(await photoPng(24, 25), 'a.png') }), { 'Idempotency-Key': 'upload-1' });
    expect(other.status).toBe(422);
    // One upload stored, with its two thumbnails.
    expect(await h.blobs.keys()).toEqual([`thumbnails/${id}-256.webp`, `thumbnails/${id}-768.webp`, `uploads/${id}.png`]);
  });

  it('says a malformed multipart body could not be read, in words', async () => {
    const res = await h.call('POST', '/api/uploads', '--xyz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc', {
      'Content-Type': 'multipart/form-data; boundary=other',
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await json(res))).toContain('multipart body could not be read');
  });
});
