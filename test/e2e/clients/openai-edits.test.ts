import type { ImageEditCompletedEvent, ImageEditStreamEvent } from 'openai/resources/images';
import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { VARIATION_PROMPT } from '../../../src/http/routes/openai/variations.js';
import { TEST_KEY, json } from '../../../src/test-support/harness.js';
import { listenEachWithStandIn } from './listen-each.js';
import { refusal } from './refusal.js';
import { decodeRgba, inside, maskPng, photoPng, pngFile, type Rect } from '../../support/sample-images.js';

/**
 * `client.images.edit()` and `createVariation()` of the official SDK against a listening server. The SDK sends
 * a multipart form, an array of images as repeated `image[]` parts (openai/openai-node@7b7d6ca
 * src/resources/images.ts and src/internal/uploads.ts, addFormValue; the same in the installed openai 6.49).
 */
const TEXT_ONLY = 'replicate/black-forest-labs/flux-schnell';
const W = 96;
const H = 64;
const HOLE: Rect = { left: 20, top: 10, width: 30, height: 24 };

const live = listenEachWithStandIn({ workers: false });

const client = () => new OpenAI({ apiKey: TEST_KEY, baseURL: `${live.server.origin}/v1`, maxRetries: 0 });

interface Listed {
  id: string;
  kind: string;
  prompt: string;
  r2_key: string;
  r2_url: string;
  source_image_ids: string[];
  parameters: Record<string, unknown>;
}
const listed = async (kind: string): Promise<Listed[]> =>
  (await json<{ images: Listed[] }>(await live.h.call('GET', `/api/images?limit=100&kind=${kind}`))).images;
/** Everything stored: an edit's files are uploads listed with kind=upload only, not in the default list. */
const gallery = async (): Promise<Listed[]> => [...(await listed('generated')), ...(await listed('upload'))];

/** Refused before any file was stored: no record and no object, not even a deleted one. */
async function expectNothingStored(): Promise<void> {
  expect(await gallery()).toHaveLength(0);
  expect(await live.h.blobs.keys()).toEqual([]);
}

describe('POST /v1/images/edits', () => {
  it('edits inside the mask only: every pixel outside the transparent rectangle is the input pixel, and the result names its upload', async () => {
    const photo = await photoPng(W, H);
    const result = await client().images.edit({
      image: await pngFile(photo, 'harbour.png'),
      mask: await pngFile(await maskPng(W, H, HOLE), 'mask.png'),
      prompt: 'a red sunset over the ocean',
      response_format: 'url',
    });

    expect(result.data).toHaveLength(1);
    expect(result).toMatchObject({ created: Math.floor(live.h.clock.now().getTime() / 1000), output_format: 'png', size: `${W}x${H}` });
    const images = await gallery();
    const made = images.find((image) => image.kind === 'generated');
    const upload = images.find((image) => image.kind === 'upload' && image.prompt === 'harbour.png');
    expect(made?.r2_url).toBe(result.data?.[0]?.url);
    expect(made?.source_image_ids).toEqual([upload?.id]);
    expect(
      images
        .filter((image) => image.kind === 'upload')
        .map((image) => image.prompt)
        .sort(),
    ).toEqual(['harbour.png', 'mask.png']);
    // The upload is the file as sent, byte for byte.
    expect(Buffer.from((await live.h.blobs.get(upload?.r2_key ?? ''))?.bytes ?? new Uint8Array()).equals(photo)).toBe(true);

    const before = await decodeRgba(photo);
    const after = await decodeRgba((await live.h.blobs.get(made?.r2_key ?? ''))?.bytes ?? new Uint8Array());
    expect([after.width, after.height]).toEqual([W, H]);
    let keptChanged = 0;
    let editedChanged = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = (y * W + x) * 4;
        const same = before.data.subarray(i, i + 4).equals(after.data.subarray(i, i + 4));
        if (inside(HOLE, x, y)) editedChanged += same ? 0 : 1;
        else keptChanged += same ? 0 : 1;
      }
    }
    expect(keptChanged).toBe(0);
    expect(editedChanged).toBeGreaterThan(HOLE.width * HOLE.height * 0.5);
  });

  it('answers b64_json with n images, each made from the same upload', async () => {
    const result = await client().images.edit({
      image: await pngFile(await photoPng(W, H), 'a.png'),
      prompt: 'a snowy forest',
      n: 2,
      response_format: 'b64_json',
      output_format: 'webp',
    });
    expect(result.data).toHaveLength(2);
    expect(result.output_format).toBe('webp');
    for (const item of result.data ?? [])
      expect(
        Buffer.from(item.b64_json ?? '', 'base64')
          .subarray(8, 12)
          .toString('latin1'),
      ).toBe('WEBP');
    const images = await gallery();
    const upload = images.find((image) => image.kind === 'upload');
    const made = images.filter((image) => image.kind === 'generated');
    expect(made).toHaveLength(2);
    for (const image of made) {
      expect(image.source_image_ids).toEqual([upload?.id]);
      expect(image.r2_key).toMatch(/\.webp$/);
    }
  });

  it('refuses several images for a model that takes one, naming image, and stores nothing', async () => {
    const photo = await photoPng(W, H);
    const error = await refusal(client().images.edit({ image: [await pngFile(photo, 'a.png'), await pngFile(photo, 'b.png')], prompt: 'a lighthouse' }));
    expect(error.param).toBe('image');
    expect(error.message).toMatch(/at most 1 input image/);
    await expectNothingStored();
  });

  it('refuses a mask of another size, naming mask, and stores nothing', async () => {
    const error = await refusal(
      client().images.edit({
        image: await pngFile(await photoPng(W, H), 'a.png'),
        mask: await pngFile(await maskPng(64, 64, HOLE), 'mask.png'),
        prompt: 'a lighthouse',
      }),
    );
    expect(error.param).toBe('mask');
    expect(error.message).toMatch(/64x64.*96x64/);
    await expectNothingStored();
  });

  it('refuses a text file given as the image, naming image', async () => {
    const error = await refusal(
      client().images.edit({ image: await toFile(Buffer.from('not a picture at all\n'), 'notes.txt', { type: 'text/plain' }), prompt: 'a lighthouse' }),
    );
    expect(error.param).toBe('image');
    expect(error.message).toMatch(/not a PNG, JPEG or WebP/);
    await expectNothingStored();
  });

  it('deletes the uploads again when a later file is refused: a mask whose header is fine but whose data is cut short', async () => {
    const mask = await maskPng(W, H, HOLE);
    const error = await refusal(
      client().images.edit({
        image: await pngFile(await photoPng(W, H), 'a.png'),
        mask: await pngFile(mask.subarray(0, mask.length - 40), 'mask.png'),
        prompt: 'a lighthouse',
      }),
    );
    expect(error.param).toBe('mask');
    expect(error.message).toMatch(/could not be decoded/);
    expect(await gallery()).toHaveLength(0);
  });

  it('refuses a transparent background on the offline model, naming background, before storing the file', async () => {
    const error = await refusal(
      client().images.edit({ image: await pngFile(await photoPng(W, H), 'a.png'), prompt: 'a lighthouse', background: 'transparent' }),
    );
    expect(error.param).toBe('background');
    await expectNothingStored();
  });

  it('streams an edit as OpenAI does: one image_edit.completed event with the image and usage', async () => {
    const stream = await client().images.edit({ image: await pngFile(await photoPng(W, H), 'a.png'), prompt: 'a lighthouse', stream: true });
    // Typed by openai-node's own stream events: what its helpers hand an app.
    const events: ImageEditStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['image_edit.completed']);
    const completed = events.find((event): event is ImageEditCompletedEvent => event.type === 'image_edit.completed');
    expect(completed?.usage).toMatchObject({ input_tokens: 0, total_tokens: 0 });
    expect(
      Buffer.from(completed?.b64_json ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('refuses an edit on a text-only model, naming image, without calling its provider', async () => {
    const error = await refusal(client().images.edit({ image: await pngFile(await photoPng(W, H), 'a.png'), prompt: 'a lighthouse', model: TEXT_ONLY }));
    expect(error.param).toBe('image');
    expect(live.standIn.calls()).toBe(0);
    await expectNothingStored();
  });

  it('takes an image sent as a plain repeated field, as curl -F image=@a.png sends it, and answers base64 by default', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await photoPng(W, H))], { type: 'image/png' }), 'a.png');
    form.append('prompt', 'a quiet harbour');
    form.append('size', '128x128');
    const res = await fetch(`${live.server.origin}/v1/images/edits`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_KEY}` }, body: form });
    expect(res.status).toBe(200);
    const body = await json<{ size: string; data: { b64_json?: string; url?: string }[] }>(res);
    expect(body.size).toBe('128x128');
    expect(body.data[0]?.url).toBeUndefined();
    expect(
      Buffer.from(body.data[0]?.b64_json ?? '', 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
  });

  it('reads images numbered image[0], image[1] as several images, in order', async () => {
    const photo = new Uint8Array(await photoPng(W, H));
    const send = async (names: string[]) => {
      const form = new FormData();
      for (const name of names) form.append(name, new Blob([photo], { type: 'image/png' }), `${name}.png`);
      form.append('prompt', 'a quiet harbour');
      return fetch(`${live.server.origin}/v1/images/edits`, { method: 'POST', headers: { Authorization: `Bearer ${TEST_KEY}` }, body: form });
    };
    expect((await send(['image[0]'])).status).toBe(200);
    expect((await gallery()).find((image) => image.kind === 'upload')?.prompt).toBe('image[0].png');
    const two = await send(['image[0]', 'image[1]']);
    expect(two.status).toBe(400);
    expect((await json<{ error: { param: string; message: string } }>(two)).error).toMatchObject({
      param: 'image',
      message: expect.stringMatching(/at most 1 input image/),
    });
  });
});

describe('POST /v1/images/variations', () => {
  it('makes a variation on the offline model: an image-to-image of the upload with the neutral prompt', async () => {
    const result = await client().images.createVariation({ image: await pngFile(await photoPng(W, H), 'fox.png'), n: 1, response_format: 'url' });
    expect(result.data).toHaveLength(1);
    expect(result.size).toBe(`${W}x${H}`);
    const images = await gallery();
    const upload = images.find((image) => image.kind === 'upload');
    const made = images.find((image) => image.kind === 'generated');
    expect(made).toMatchObject({ prompt: VARIATION_PROMPT, source_image_ids: [upload?.id], r2_url: result.data?.[0]?.url });
  });

  it('refuses a model that takes no image with a strength, naming model, without calling it', async () => {
    const error = await refusal(client().images.createVariation({ image: await pngFile(await photoPng(W, H), 'fox.png'), model: TEXT_ONLY }));
    expect(error.param).toBe('model');
    expect(error.message).toMatch(/cannot make variations/);
    expect(live.standIn.calls()).toBe(0);
    await expectNothingStored();
  });
});
