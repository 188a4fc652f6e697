import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';
import { file, form, photoPng } from './images.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

interface Batch {
  status: string;
  completed_count: number;
  images: { id: string; r2_url: string }[];
}

it('gives every prompt of a batch the same input image and output format, with lineage and the real extension', async () => {
  const upload = await json(await h.call('POST', '/api/uploads', form({ file: file(await photoPng(96, 64), 'product.png') })));
  const res = await h.call('POST', '/api/batch/generate', {
    prompts: ['a beach', 'a forest'],
    model: 'local/procedural',
    image_ids: [upload.id],
    strength: 0.5,
    output_format: 'webp',
  });
  expect(res.status).toBe(201);
  const { id } = await json<{ id: string }>(res);
  const batch = await eventually(async () => {
    const read = await json<Batch>(await h.call('GET', `/api/batch/${id}`));
    return read.status === 'completed' ? read : undefined;
  });
  expect(batch.completed_count).toBe(2);
  for (const made of batch.images) {
    expect(made.r2_url).toMatch(/\.webp$/);
    const image = await json(await h.call('GET', `/api/images/${made.id}`));
    expect(image).toMatchObject({ source_image_ids: [upload.id], width: 96, height: 64, r2_key: `generated/${made.id}.webp` });
    expect((await h.fetchPublic(made.r2_url)).headers.get('Content-Type')).toBe('image/webp');
  }
});

it('refuses a batch whose inputs the model cannot take before queueing anything', async () => {
  await expectInvalid(
    await h.call('POST', '/api/batch/generate', { prompts: ['a beach'], model: 'local/procedural', image_ids: ['img_a', 'img_b'] }),
    'Invalid image_ids',
  );
  expect((await json<{ batches: unknown[] }>(await h.call('GET', '/api/batch'))).batches).toEqual([]);
});
