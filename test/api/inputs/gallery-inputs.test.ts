import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_KEY, json, type Harness } from '../../../src/test-support/harness.js';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { file, form, maskPng, photoPng } from './images.js';

/**
 * Issue 35, finding 4: the gallery shows what the user made. The files an edit or a variation sends are stored once
 * (by their bytes, per user) as uploads of role input or mask, kept out of the list without kind, listed with
 * kind=upload and still found by id from the images made of them; a file sent without a name gets one.
 */

/** FLUX Kontext [pro] on Replicate takes one image and costs $0.04 a picture (a stand-in counts the calls). */
const KONTEXT = 'replicate/black-forest-labs/flux-kontext-pro';
const HOLE = { left: 16, top: 8, width: 32, height: 24 };

interface Listed {
  id: string;
  kind: string;
  upload_role: string | null;
  prompt: string;
  source_image_ids: string[];
  parameters: { mask_image_id?: string };
  r2_key: string;
}
interface List {
  images: Listed[];
  pagination: { total: number };
}

let h: Harness;
let standIn: StandIn;
beforeEach(async () => ({ h, standIn } = await harnessWithStandIn()));
afterEach(() => h.close());

const list = async (query = '') => json<List>(await h.call('GET', `/api/images${query}`));
const ids = async (query = '') => (await list(query)).images.map((image) => image.id);
const uploadKeys = async () => (await h.blobs.keys()).filter((key) => key.startsWith('uploads/'));

async function edit(image: Blob, mask?: Blob, headers: Record<string, string> = {}): Promise<Listed> {
  const fields: Record<string, Blob | string> = { image, prompt: 'a green velvet armchair', model: 'local/procedural', response_format: 'url' };
  if (mask !== undefined) fields.mask = mask;
  const res = await h.call('POST', '/v1/images/edits', form(fields), headers);
  expect(res.status).toBe(200);
  const made = (await list('?kind=generated')).images[0];
  if (made === undefined) throw new Error('the edit made no image');
  return made;
}

async function upload(body: FormData, headers: Record<string, string> = {}): Promise<Listed> {
  const res = await h.call('POST', '/api/uploads', body, headers);
  expect(res.status).toBe(201);
  return json<Listed>(res);
}

describe("an edit's files in the gallery", () => {
  it('are kept out of the list without kind, listed with kind=upload by role, and still resolve from the image made of them', async () => {
    const made = await edit(file(await photoPng(96, 64), 'room.png'), file(await maskPng(96, 64, HOLE), 'mask.png'));
    const gallery = await list();
    expect(gallery.images.map((image) => image.id)).toEqual([made.id]);
    expect(gallery.pagination.total).toBe(1);

    const uploads = await list('?kind=upload');
    expect(uploads.pagination.total).toBe(2);
    const byRole = Object.fromEntries(uploads.images.map((image) => [image.upload_role, image]));
    expect(byRole.input).toMatchObject({ kind: 'upload', prompt: 'room.png' });
    expect(byRole.mask).toMatchObject({ kind: 'upload', prompt: 'mask.png' });
    expect(made).toMatchObject({ upload_role: null, source_image_ids: [byRole.input?.id], parameters: { mask_image_id: byRole.mask?.id } });

    // "Made from" and "Mask" in the web app resolve each id: both answer, and the input knows what was made of it.
    const input = await json<{ id: string; derived_image_ids: string[] }>(await h.call('GET', `/api/images/${String(byRole.input?.id)}`));
    expect(input.derived_image_ids).toEqual([made.id]);
    expect((await h.call('GET', `/api/images/${String(byRole.mask?.id)}`)).status).toBe(200);
    expect(await ids(`?derived_from=${String(byRole.input?.id)}`)).toEqual([made.id]);
    // A search without kind searches the gallery; with kind=upload it finds the input by its name.
    expect(await ids('?q=room')).toEqual([]);
    expect(await ids('?q=room&kind=upload')).toEqual([byRole.input?.id]);
  });

  it('are stored once however many edits send the same files, and a variation reuses them too', async () => {
    const room = await photoPng(96, 64);
    const mask = await maskPng(96, 64, HOLE);
    const first = await edit(file(room, 'room.png'), file(mask, 'mask.png'));
    h.clock.advance(1000);
    const second = await edit(file(room, 'room.png'), file(mask, 'mask.png'));
    h.clock.advance(1000);
    // The AI SDK sends its files as `blob`: the same bytes are the same upload, whatever the name.
    const third = await edit(file(room, 'blob'));
    expect(second.source_image_ids).toEqual(first.source_image_ids);
    expect(third.source_image_ids).toEqual(first.source_image_ids);
    expect(second.parameters.mask_image_id).toBe(first.parameters.mask_image_id);
    expect((await h.call('POST', '/v1/images/variations', form({ image: file(room, 'room-again.png'), model: 'local/procedural' }))).status).toBe(200);

    expect((await list('?kind=upload')).pagination.total).toBe(2);
    expect(await uploadKeys()).toHaveLength(2);
    expect((await list()).pagination.total).toBe(4);
  });

  it('leave an upload a refused edit found already in place: it was not that request to remove', async () => {
    const { key } = await createKeyFor(h, { name: 'tight', permissions: ['generate', 'read'], daily_budget_usd: 0.01 });
    const asTight = { Authorization: `Bearer ${key}` };
    const photo = await photoPng(64, 64);
    const kept = await upload(form({ file: file(photo, 'room.png') }), asTight);
    const res = await h.call('POST', '/v1/images/edits', form({ image: file(photo, 'room.png'), prompt: 'a green armchair', model: KONTEXT }), asTight);
    expect(res.status).toBe(429);
    expect(standIn.calls()).toBe(0);
    expect((await h.call('GET', `/api/images/${kept.id}`, undefined, asTight)).status).toBe(200);
    expect(await uploadKeys()).toEqual([kept.r2_key]);
  });
});

describe('POST /api/uploads and the same bytes', () => {
  it('answers the image already stored for identical bytes of the same user, and another user gets their own', async () => {
    const photo = await photoPng(48, 32);
    const first = await upload(form({ file: file(photo, 'beach.png') }));
    const again = await upload(form({ file: file(photo, 'beach-copy.png') }));
    expect(again).toMatchObject({ id: first.id, prompt: 'beach.png', upload_role: 'file' });
    expect(await uploadKeys()).toHaveLength(1);
    expect((await list()).pagination.total).toBe(1);

    const bob = await createKeyFor(h, { name: 'bob', user_id: 'bob', permissions: ['generate', 'read'] });
    const theirs = await upload(form({ file: file(photo, 'beach.png') }), { Authorization: `Bearer ${bob.key}` });
    expect(theirs.id).not.toBe(first.id);
    expect(await uploadKeys()).toHaveLength(2);
    // Different bytes are a different image, even under the same name.
    expect((await upload(form({ file: file(await photoPng(48, 33), 'beach.png') }))).id).not.toBe(first.id);
  });

  it('never answers a file stored under the other UPLOAD_METADATA setting: with and without its metadata are two files', async () => {
    const photo = await photoPng(40, 40);
    const stripped = await upload(form({ file: file(photo, 'a.png') }));
    h.deps.uploadMetadata = 'keep';
    try {
      const kept = await upload(form({ file: file(photo, 'a.png') }));
      expect(kept.id).not.toBe(stripped.id);
      expect((await upload(form({ file: file(photo, 'a.png') }))).id).toBe(kept.id);
    } finally {
      h.deps.uploadMetadata = 'strip';
    }
    expect((await upload(form({ file: file(photo, 'a.png') }))).id).toBe(stripped.id);
  });

  it("makes an edit's input a listed file when it is uploaded on purpose", async () => {
    const room = await photoPng(96, 64);
    const made = await edit(file(room, 'room.png'));
    expect(await ids()).toEqual([made.id]);
    const uploaded = await upload(form({ file: file(room, 'living-room.png') }));
    expect(uploaded).toMatchObject({ id: made.source_image_ids[0], upload_role: 'file', prompt: 'room.png' });
    expect((await ids()).sort()).toEqual([made.id, uploaded.id].sort());
    expect((await list()).pagination.total).toBe(2);
    // Sent again as an input or a mask, a listed file stays listed.
    await upload(form({ file: file(room, 'room.png'), role: 'input' }));
    expect((await list()).pagination.total).toBe(2);
  });

  it('keeps a mask painted in the web app (role mask) out of the list without kind, and refuses an unknown role naming it', async () => {
    const mask = await upload(form({ file: file(await maskPng(64, 64, HOLE), 'mask.png'), role: 'mask' }));
    expect(mask).toMatchObject({ kind: 'upload', upload_role: 'mask' });
    expect(await ids()).toEqual([]);
    expect(await ids('?kind=upload')).toEqual([mask.id]);

    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(32, 32), 'a.png'), role: 'poster' }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await json(res))).toContain('role must be file, input or mask');
  });
});

describe('a file sent without a name', () => {
  it('is named by its role, type and time instead of blob', async () => {
    h.clock.set('2026-11-27T09:00:00.000Z');
    expect((await upload(form({ file: file(await photoPng(40, 30), 'blob') }))).prompt).toBe('upload-2026-11-27T09-00-00.png');
    const jpeg = new Uint8Array(
      await sharp(await photoPng(40, 30))
        .jpeg()
        .toBuffer(),
    );
    h.clock.advance(61_000);
    // An empty filename, as a client may write it (FormData leaves the parameter out, which makes the part a text field).
    const boundary = 'nameless-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: image/jpeg\r\n\r\n`;
    const nameless = Buffer.concat([Buffer.from(head), jpeg, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const res = await h.app.request('/api/uploads', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: nameless,
    });
    expect(res.status).toBe(201);
    expect((await json<Listed>(res)).prompt).toBe('upload-2026-11-27T09-01-01.jpg');
    // A real name is kept as it was.
    expect((await upload(form({ file: file(await photoPng(41, 30), 'Blob of paint.png') }))).prompt).toBe('Blob of paint.png');

    h.clock.set('2026-11-27T10:30:00.000Z');
    await edit(new Blob([new Uint8Array(await photoPng(96, 64))], { type: 'image/png' }), new Blob([new Uint8Array(await maskPng(96, 64, HOLE))]));
    const names = (await list('?kind=upload')).images.filter((image) => image.upload_role !== 'file').map((image) => image.prompt);
    expect(names.sort()).toEqual(['input-2026-11-27T10-30-00.png', 'mask-2026-11-27T10-30-00.png']);
  });
});
