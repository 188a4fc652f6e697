import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { STAGED_HEAD_BYTES } from '../../../src/ports/upload-staging.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { file, form, photoPng } from './images.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const BOUNDARY = 'x-boundary-7781';
const text = (value: string) => new TextEncoder().encode(value);

/** A form with a `prompt` whose bytes are exactly `prompt`, and a PNG `image`, as a client could send it. */
function rawEditForm(prompt: readonly number[], png: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...text(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n`),
    ...prompt,
    ...text(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    ...png,
    ...text(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const send = (path: string, body: Uint8Array<ArrayBuffer>) =>
  h.app.request(path, { method: 'POST', body, headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` } });

describe('multipart text fields follow the JSON body’s rules', () => {
  it.each([
    ['invalid UTF-8', [0x63, 0x61, 0x74, 0xff]],
    ['a lone surrogate (ED A0 80)', [0x63, 0x61, 0x74, 0xed, 0xa0, 0x80]],
    ['a NUL', [0x63, 0x00, 0x74]],
  ])('refuses a prompt with %s on /v1/images/edits with a 400 naming prompt, storing nothing', async (_, prompt) => {
    const res = await send('/v1/images/edits', rawEditForm(prompt, await photoPng(32, 32)));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('prompt');
    expect(await h.blobs.keys()).toEqual([]);
  });

  it('takes a prompt in any script as sent', async () => {
    const res = await send('/v1/images/edits', rawEditForm([...text('un chat 猫 🐈')], await photoPng(32, 32)));
    expect(res.status).toBe(200);
  });
});

describe('uploads are staged, not held in memory', () => {
  it('decodes an upload larger than its head from its staged file in the CPU pool, and removes that file once answered', async () => {
    const verify = vi.spyOn(h.deps.codec, 'verify');
    // Noise does not compress: about 770 kB, past the 512 KiB a staged file keeps in memory.
    const png = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
      .png()
      .toBuffer();
    expect(png.length).toBeGreaterThan(STAGED_HEAD_BYTES);
    const res = await h.call('POST', '/api/uploads', form({ file: file(png, 'a.png') }));
    expect(res.status).toBe(201);
    const source = verify.mock.calls.at(-1)?.[0];
    expect(source).not.toBeInstanceOf(Uint8Array);
    const path = (source as { path: string }).path;
    expect(typeof path).toBe('string');
    expect(fs.existsSync(path)).toBe(false);
    const stored = await h.blobs.get(`uploads/${String((await json(res)).id)}.png`);
    expect(Buffer.from(stored?.bytes ?? []).equals(png)).toBe(true);
  });

  it('keeps a small upload in memory: it never waits on the disk behind large ones', async () => {
    const verify = vi.spyOn(h.deps.codec, 'verify');
    const res = await h.call('POST', '/api/uploads', form({ file: file(await photoPng(64, 64), 'a.png') }));
    expect(res.status).toBe(201);
    expect(verify.mock.calls.at(-1)?.[0]).toBeInstanceOf(Uint8Array);
  });

  it('answers 413 naming the limit for a file that grows past it as it streams, and keeps nothing', async () => {
    const big = new Uint8Array(51 * 1024 * 1024);
    big.set(await photoPng(8, 8));
    // Sent without a Content-Length that would give it away: only counting the bytes as they come finds it.
    const body = new Blob([
      text(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`),
      big,
      text(`\r\n--${BOUNDARY}--\r\n`),
    ]).stream();
    const res = await h.app.request('/api/uploads', {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 50 * 1024 * 1024 } });
    expect(await h.blobs.keys()).toEqual([]);
  });
});
