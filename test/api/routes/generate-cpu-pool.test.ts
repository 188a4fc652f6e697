import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY } from '../../../src/test-support/harness.js';

describe('image work on the CPU pool', () => {
  it('a runtime closes the CPU pool it opened, so nothing is left running after close()', async () => {
    const h = await createHarness({ cpu: 'own' });
    const res = await h.call('POST', '/api/generate', { prompt: 'a harbour at dawn', model: 'local/procedural', width: 96, height: 64 });
    expect(res.status).toBe(201);
    const stored = await h.blobs.get(String((await json(res)).r2_key));
    await h.close();
    await expect(h.deps.codec.encode(stored?.bytes ?? new Uint8Array(), { format: 'png' })).rejects.toThrow('the CPU pool is closed');
  });

  it('a JPEG from a provider is stored as a PNG converted on the pool', async () => {
    const jpeg = await sharp({ create: { width: 72, height: 40, channels: 3, background: '#aa5533' } })
      .jpeg()
      .toBuffer();
    const h = await createHarness({ providers: { local: { id: 'local', generate: async () => ({ bytes: jpeg, contentType: 'image/jpeg' }) } } });
    const res = await h.call('POST', '/api/generate', { prompt: 'a cat', model: 'local/procedural' });
    expect(res.status).toBe(201);
    const image = await json(res);
    const stored = await h.blobs.get(String(image.r2_key));
    const meta = await sharp(stored?.bytes).metadata();
    expect([meta.format, meta.width, meta.height, image.width, image.height]).toEqual(['png', 72, 40, 72, 40]);
    await h.close();
  });

  it('a client that hangs up does not stop its generation: the image lands in the gallery', async () => {
    const h = await createHarness();
    const controller = new AbortController();
    const pending = h.app.request('/api/generate', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a storm over the sea', model: 'local/procedural', width: 2048, height: 2048 }),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    // Nobody reads this answer: the generation is followed at its Location, and runs on whoever waits.
    expect((await pending).status).toBe(202);
    await h.deps.queue.drain();
    const images = (await json<{ images: { prompt: string }[] }>(await h.call('GET', '/api/images'))).images;
    expect(images.map((image) => image.prompt)).toEqual(['a storm over the sea']);
    expect((await h.blobs.keys()).filter((key) => key.startsWith('generated/'))).toHaveLength(1);
    await h.close();
  });
});
