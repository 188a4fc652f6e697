import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { grainyPhoto } from '../../support/grainy-photo.js';

/** Issue 31, finding 4: an uploaded photo's location and device are never served at its public URL. */
const closing = closeAfterEach();
const CAMERA_EXIF = {
  IFD0: { Make: 'Acme', Model: 'Phone 9' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' },
};

async function upload(h: Harness, bytes: Uint8Array): Promise<{ r2_url: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'holiday.jpg');
  const res = await h.app.request('/api/uploads', { method: 'POST', headers: { Authorization: `Bearer ${TEST_KEY}` }, body: form });
  expect(res.status).toBe(201);
  return json(res);
}

const served = async (h: Harness, url: string): Promise<Buffer> => Buffer.from(await (await h.fetchPublic(url)).arrayBuffer());

describe('uploads and privacy', () => {
  it('serves an uploaded JPEG without its GPS position or camera, with the same pixels and orientation', async () => {
    const h = closing(await createHarness({ workers: false }));
    const photo = await grainyPhoto(96, 64).withExif(CAMERA_EXIF).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    expect(photo.includes('Acme')).toBe(true);
    const { r2_url: url } = await upload(h, photo);
    const bytes = await served(h, url);
    for (const text of ['Acme', 'Phone 9', 'GPS']) expect(bytes.includes(text)).toBe(false);
    const metadata = await sharp(bytes).metadata();
    expect(metadata.orientation).toBe(6);
    // Not re-encoded: the decoded pixels are the original's exactly.
    expect((await sharp(bytes).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).toBe(true);
  });

  it('keeps the file byte for byte with UPLOAD_METADATA=keep', async () => {
    const h = closing(await createHarness({ workers: false }));
    h.deps.uploadMetadata = 'keep';
    const photo = await grainyPhoto(96, 64).withExif(CAMERA_EXIF).jpeg().toBuffer();
    const { r2_url: url } = await upload(h, photo);
    expect((await served(h, url)).equals(photo)).toBe(true);
  });
});
