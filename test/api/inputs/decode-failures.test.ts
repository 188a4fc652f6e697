import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { classifyDecodeFailure } from '../../../src/domain/inputs/decode-failure-messages.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { jpegMarkerOffset, pngChunkOffset } from '../../support/broken-images.js';
import { photoPng } from '../../support/sample-images.js';
import { file, form } from './images.js';

let h: Harness;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
beforeAll(async () => {
  h = await createHarness({ workers: false });
  png = await photoPng(64, 48);
  jpeg = await sharp(png).jpeg().toBuffer();
  webp = await sharp(png).webp().toBuffer();
});
afterAll(async () => {
  await h.close();
});

/** A PNG with one byte of its IDAT data flipped: the chunk's CRC no longer matches. */
function pngWithBadCrc(): Buffer {
  const broken = Buffer.from(png);
  const idat = pngChunkOffset(broken, 'IDAT');
  broken[idat + 8 + 4] = (broken[idat + 8 + 4] ?? 0) ^ 0xff;
  return broken;
}

/** Words of the decoding libraries, in their style: none may reach an answer. */
const LIBRARY_TEXT = /vips|libvips|pngload|libpng|VipsJpeg|webp2vips|sharp|jpeg image|SOS marker|premature|DataView|CRC|decompress/i;

describe('POST /api/uploads with a file that does not decode', () => {
  it.each([
    [
      'a JPEG cut before its image data (SOS)',
      () => jpeg.subarray(0, jpegMarkerOffset(jpeg, 0xda)),
      'cut.jpg',
      'image/jpeg',
      'it is not a valid JPEG: the file ends before its image data',
    ],
    [
      'a JPEG cut partway through its image data',
      () => jpeg.subarray(0, Math.floor(jpeg.length * 0.9)),
      'cut.jpg',
      'image/jpeg',
      'it is not a valid JPEG: the file is cut short partway through its image data',
    ],
    ['a PNG whose IDAT fails its CRC', pngWithBadCrc, 'crc.png', 'image/png', 'it is not a valid PNG: its image data is damaged'],
    [
      'a PNG cut inside its IDAT',
      () => png.subarray(0, pngChunkOffset(png, 'IDAT') + 28),
      'cut.png',
      'image/png',
      'it is not a valid PNG: the file is cut short partway through its image data',
    ],
    [
      'a WebP cut short',
      () => webp.subarray(0, Math.floor(webp.length * 0.6)),
      'cut.webp',
      'image/webp',
      'it is not a valid WebP: the file is cut short partway through its image data',
    ],
  ])("refuses %s in its own words, the decoder's in the log at warn", async (_name, make, filename, type, sentence) => {
    const warn = vi.spyOn(h.deps.logger, 'warn');
    try {
      const res = await h.call('POST', '/api/uploads', form({ file: file(make(), filename, type) }), { 'X-Request-Id': 'req_decode_failure' });
      const text = await res.clone().text();
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({
        code: 'INVALID_PARAMETER',
        error: `file could not be decoded: ${sentence}; send the complete PNG, JPEG or WebP file`,
        details: { field: 'file' },
      });
      expect(text).not.toMatch(LIBRARY_TEXT);
      const logged = warn.mock.calls.find(([fields]) => typeof fields === 'object' && (fields as { requestId?: unknown }).requestId === 'req_decode_failure');
      expect(logged?.[0]).toMatchObject({ path: '/api/uploads', code: 'INVALID_PARAMETER', cause: expect.stringMatching(/^file: .*(vips|webp|png|jpeg)/i) });
    } finally {
      warn.mockRestore();
    }
  });
});

describe("the decoders' words, read", () => {
  it.each([
    ['VipsJpeg: premature end of JPEG image\nVipsJpeg: Invalid JPEG file structure: missing SOS marker', 'image/jpeg', 'no-image-data'],
    ['Input buffer contains unsupported image format', 'image/jpeg', 'bad-header'],
    ['VipsJpeg: Unsupported JPEG process: SOF type 0xc9', 'image/jpeg', 'unsupported'],
    ['Input image exceeds pixel limit', 'image/png', 'too-large'],
    ['the PNG could not be decoded (cut short or corrupt): CRC mismatch for chunk IDAT. Expected 1, found 2', 'image/png', 'corrupt'],
    ['something no table has heard of', 'image/webp', 'corrupt'],
  ] as const)('reads %j as %s', (reason, type, failure) => {
    // Whole files, so that only the words decide.
    const whole = type === 'image/png' ? png : type === 'image/webp' ? webp : jpeg;
    expect(classifyDecodeFailure(type, whole, reason)).toBe(failure);
  });
});
