import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';
import { harnessWithStandIn } from '../../../src/test-support/stand-in-harness.js';
import type { StandIn } from '../../../src/test-support/stand-in-provider.js';
import { createKeyFor } from '../keys/key-helpers.js';
import { file, form, photoPng, maskPng, decodeRgba } from './images.js';

/** A paid, text-only model (its stand-in counts the calls a provider would bill). */
const TEXT_ONLY = 'replicate/black-forest-labs/flux-schnell';

let h: Harness;
let standIn: StandIn;
beforeEach(async () => ({ h, standIn } = await harnessWithStandIn()));
afterEach(() => h.close());

async function uploaded(bytes: Uint8Array, name = 'input.png'): Promise<string> {
  const res = await h.call('POST', '/api/uploads', form({ file: file(bytes, name) }));
  expect(res.status).toBe(201);
  return String((await json(res)).id);
}

const generate = (body: Record<string, unknown>) => h.call('POST', '/api/generate', { prompt: 'a stormy sea', model: 'local/procedural', ...body });

describe('POST /api/generate with image inputs', () => {
  it('edits inside the mask on the offline model: kept pixels unchanged, the size of the input, lineage both ways', async () => {
    const input = await photoPng(96, 64);
    const imageId = await uploaded(input);
    const maskId = await uploaded(await maskPng(96, 64, { left: 16, top: 8, width: 32, height: 24 }), 'mask.png');
    const res = await generate({ image_ids: [imageId], mask_image_id: maskId });
    expect(res.status).toBe(201);
    const edit = await json(res);
    expect(edit).toMatchObject({ kind: 'generated', width: 96, height: 64, source_image_ids: [imageId], parameters: { mask_image_id: maskId } });

    const before = await decodeRgba(input);
    const after = await decodeRgba((await h.blobs.get(String(edit.r2_key)))?.bytes ?? new Uint8Array());
    let changedInside = 0;
    for (let y = 0; y < 64; y += 1) {
      for (let x = 0; x < 96; x += 1) {
        const at = (y * 96 + x) * 4;
        const same = before.data.subarray(at, at + 4).equals(after.data.subarray(at, at + 4));
        const inside = x >= 16 && x < 48 && y >= 8 && y < 32;
        if (!inside) expect(same, `pixel ${x},${y} outside the mask changed`).toBe(true);
        else if (!same) changedInside += 1;
      }
    }
    expect(changedInside).toBeGreaterThan(32 * 24 * 0.5);

    const parent = await json<{ derived_image_ids: string[] }>(await h.call('GET', `/api/images/${imageId}`));
    expect(parent.derived_image_ids).toEqual([edit.id]);
    const children = await json<{ images: { id: string }[] }>(await h.call('GET', `/api/images?derived_from=${imageId}`));
    expect(children.images.map((image) => image.id)).toEqual([edit.id]);
  });

  it('does image-to-image with a strength, and an edit of an edit walks back to the upload', async () => {
    const first = await uploaded(await photoPng(64, 64));
    const second = await json(await generate({ image_ids: [first], strength: 0.3 }));
    expect(second.parameters).toMatchObject({ strength: 0.3 });
    const third = await json(await generate({ image_ids: [String(second.id)], strength: 0.5 }));
    expect(third.source_image_ids).toEqual([second.id]);
    expect(second.source_image_ids).toEqual([first]);
  });

  it('refuses images for a text-only model before any paid call, naming the capability', async () => {
    const imageId = await uploaded(await photoPng(32, 32));
    const body = await expectInvalid(await generate({ model: TEXT_ONLY, image_ids: [imageId] }), 'Invalid image_ids');
    expect(JSON.stringify(body)).toContain('inputs.max_images is 0');
    expect(standIn.calls()).toBe(0);
    expect((await json<{ charges: unknown[] }>(await h.call('GET', '/api/analytics/charges'))).charges).toEqual([]);
  });

  it('refuses more images than the model takes, and more than 16', async () => {
    const a = await uploaded(await photoPng(32, 32));
    const b = await uploaded(await photoPng(32, 32));
    const body = await expectInvalid(await generate({ image_ids: [a, b] }), 'Invalid image_ids');
    expect(JSON.stringify(body)).toContain('at most 1 input image');
    const seventeen = Array.from({ length: 17 }, (_, i) => `img_${i}`);
    expect((await generate({ image_ids: seventeen })).status).toBe(400);
  });

  it('refuses a mask of another size, and a mask without transparency, saying what to send', async () => {
    const imageId = await uploaded(await photoPng(64, 64));
    const small = await uploaded(await maskPng(32, 32, { left: 0, top: 0, width: 8, height: 8 }), 'small-mask.png');
    const wrongSize = await expectInvalid(await generate({ image_ids: [imageId], mask_image_id: small }), 'Invalid mask_image_id');
    expect(JSON.stringify(wrongSize)).toContain('the mask is 32x32 but the image it applies to is 64x64');
    const opaque = await uploaded(
      new Uint8Array(
        await sharp(await photoPng(64, 64))
          .removeAlpha()
          .png()
          .toBuffer(),
      ),
      'opaque.png',
    );
    const noAlpha = await expectInvalid(await generate({ image_ids: [imageId], mask_image_id: opaque }), 'Invalid mask_image_id');
    expect(JSON.stringify(noAlpha)).toContain('no transparency');
  });

  it("answers 404 for another user's image, as for any image", async () => {
    const bob = await createKeyFor(h, { name: 'bob', user_id: 'bob', permissions: ['generate', 'read'] });
    const bobs = await h.app.request('/api/uploads', {
      method: 'POST',
      headers: { Authorization: `Bearer ${bob.key}` },
      body: form({ file: file(await photoPng(32, 32), 'b.png') }),
    });
    const bobImage = String((await json(bobs)).id);
    const res = await generate({ image_ids: [bobImage] });
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ code: 'NOT_FOUND', details: { image_ids: bobImage } });
  });

  it('refuses a mask or a strength without an image, and a strength outside 0..1', async () => {
    await expectInvalid(await generate({ strength: 0.5 }), 'Invalid strength');
    await expectInvalid(await generate({ mask_image_id: 'img_x' }), 'Invalid mask_image_id');
    await expectInvalid(await generate({ strength: 2 }), 'Invalid strength');
  });
});

describe('output format, quality and background', () => {
  it('stores webp and jpeg under their own extension and serves their content type', async () => {
    for (const [format, extension, type] of [
      ['webp', 'webp', 'image/webp'],
      ['jpeg', 'jpg', 'image/jpeg'],
    ] as const) {
      const image = await json(await generate({ output_format: format, output_compression: 80, width: 64, height: 64 }));
      expect(image.r2_key).toBe(`generated/${String(image.id)}.${extension}`);
      expect(image.parameters).toMatchObject({ output_format: format, output_compression: 80 });
      const served = await h.fetchPublic(String(image.r2_url));
      expect(served.headers.get('Content-Type')).toBe(type);
      expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe(format);
    }
  });

  it('refuses what the model cannot do, naming the option, and makes nothing', async () => {
    await expectInvalid(await generate({ background: 'transparent' }), 'Invalid background');
    await expectInvalid(await generate({ quality: 'high' }), 'Invalid quality');
    await expectInvalid(await generate({ output_compression: 50 }), 'Invalid output_compression');
    await expectInvalid(await generate({ output_format: 'gif' }), 'Invalid output_format');
    await expectInvalid(await generate({ input_fidelity: 'high' }), 'Invalid input_fidelity');
    expect(await h.blobs.keys()).toEqual([]);
    expect((await generate({ quality: 'auto', background: 'opaque', width: 64, height: 64 })).status).toBe(201);
  });
});
