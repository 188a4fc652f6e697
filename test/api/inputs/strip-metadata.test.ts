import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/domain/errors.js';
import { crc32 } from '../../../src/domain/inputs/metadata/png-metadata.js';
import { summarizeExif } from '../../../src/domain/inputs/metadata/exif-summary.js';
import { applyStripPlan, planMetadataStrip, stripMetadataFromBytes, type StrippableFormat } from '../../../src/domain/inputs/strip-metadata.js';
import { grainyPhoto } from '../../support/grainy-photo.js';

/** Camera files carry where and with what they were taken; a stripped file keeps its pixels, profile and orientation. */
const CAMERA_EXIF = {
  IFD0: { Make: 'Acme', Model: 'Phone 9', Software: 'CamOS 4.2' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' },
};
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.4N"/></rdf:RDF></x:xmpmeta>';

const cameraFile = (format: StrippableFormat, orientation = 6): Promise<Buffer> =>
  grainyPhoto(96, 64).withIccProfile('p3').withExif(CAMERA_EXIF).withMetadata({ orientation }).withXmp(XMP).toFormat(format).toBuffer();

const pixels = (bytes: Uint8Array): Promise<Buffer> => sharp(bytes).raw().toBuffer();
const contains = (haystack: Uint8Array, text: string): boolean => Buffer.from(haystack).includes(text);

/** The PNG's chunk types in order. */
function pngChunks(bytes: Uint8Array): string[] {
  const types: string[] = [];
  const view = Buffer.from(bytes);
  for (let at = 8; at + 8 <= view.byteLength; at += 12 + view.readUInt32BE(at)) types.push(view.toString('latin1', at + 4, at + 8));
  return types;
}

/** A PNG chunk, for what sharp does not write (tEXt, zTXt, tIME). */
function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.byteLength);
  out.writeUInt32BE(data.byteLength, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.byteLength)), 8 + data.byteLength);
  return out;
}

/** The file with these chunks after IHDR (which is always first: 8 + 25 bytes). */
const withChunks = (png: Buffer, ...chunks: Buffer[]): Buffer => Buffer.concat([png.subarray(0, 33), ...chunks, png.subarray(33)]);

describe.each<StrippableFormat>(['jpeg', 'png', 'webp'])('stripping a camera %s', (format) => {
  it('removes GPS, device and XMP, and keeps the pixels, the ICC profile and the orientation', async () => {
    const original = await cameraFile(format);
    const before = await sharp(original).metadata();
    expect(before.exif !== undefined && contains(before.exif, 'Acme')).toBe(true);
    expect(before.exif === undefined ? [] : summarizeExif(before.exif).kinds).toContain('gps');

    const { bytes, removed } = await stripMetadataFromBytes(original, format);
    expect(removed).toEqual(expect.arrayContaining(['exif', 'gps', 'device', 'xmp']));
    const after = await sharp(bytes).metadata();
    expect(after.orientation).toBe(6);
    expect(after.xmp).toBeUndefined();
    expect(after.exif === undefined ? [] : summarizeExif(after.exif).kinds).toEqual(['exif']);
    for (const text of ['Acme', 'Phone 9', 'CamOS', 'GPSLatitude']) expect(contains(bytes, text)).toBe(false);
    expect(after.icc).toEqual(before.icc);
    expect({ width: after.width, height: after.height, format: after.format }).toEqual({ width: 96, height: 64, format: before.format });
    // libvips writes a WebP with EXIF that it cannot decode again at this size: the same picture without metadata
    // (the encoder's output does not depend on it) gives the pixels to compare with.
    const reference = format === 'webp' ? await grainyPhoto(96, 64).webp().toBuffer() : original;
    expect((await pixels(bytes)).equals(await pixels(reference))).toBe(true);
    expect(bytes.byteLength).toBeLessThan(original.byteLength);
  });

  it('writes no EXIF at all when the orientation is the default', async () => {
    const { bytes } = await stripMetadataFromBytes(await cameraFile(format, 1), format);
    const after = await sharp(bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.orientation ?? 1).toBe(1);
  });

  it('returns a file without metadata unchanged, as one range of the source', async () => {
    const plain = await grainyPhoto(32, 32).toFormat(format).toBuffer();
    const plan = await planMetadataStrip((offset, length) => Promise.resolve(plain.subarray(offset, offset + length)), plain.byteLength, format);
    expect(plan).toEqual({ parts: [{ from: 0, to: plain.byteLength }], removed: [] });
    expect((await stripMetadataFromBytes(plain, format)).bytes).toBe(plain);
  });

  it('refuses a cut-short file with INVALID_PARAMETER naming the field, never a RangeError', async () => {
    const original = await cameraFile(format);
    for (const keep of [1, 5, 11, 20, 40, Math.floor(original.byteLength / 2), original.byteLength - 3]) {
      const cut = original.subarray(0, keep);
      const error = await stripMetadataFromBytes(cut, format, 'image').catch((caught: unknown) => caught);
      expect(error, `cut to ${keep} bytes`).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'INVALID_PARAMETER', details: { field: 'image', message: expect.stringContaining('well-formed') } });
    }
  });
});

describe('stripping PNG text', () => {
  it('drops tEXt, zTXt, iTXt, tIME and eXIf, and keeps iCCP, pHYs and the data', async () => {
    const camera = await grainyPhoto(64, 40).withIccProfile('p3').withExif(CAMERA_EXIF).withXmp(XMP).withMetadata({ density: 300 }).png().toBuffer();
    const original = withChunks(
      camera,
      pngChunk('tEXt', Buffer.from('Comment\0taken at home, 12 Rue Example')),
      pngChunk('zTXt', Buffer.from('Author\0\0xyz')),
      pngChunk('iTXt', Buffer.from('Description\0\0\0\0\0my flat, 3rd floor')),
      pngChunk('tIME', Buffer.from([0x07, 0xea, 1, 2, 3, 4, 5])),
    );
    expect(pngChunks(original)).toEqual(expect.arrayContaining(['tEXt', 'zTXt', 'iTXt', 'tIME', 'eXIf', 'iCCP', 'pHYs']));
    const { bytes, removed } = await stripMetadataFromBytes(original, 'png');
    expect(removed).toEqual(expect.arrayContaining(['text', 'time', 'exif', 'gps', 'device', 'xmp']));
    const chunks = pngChunks(bytes);
    for (const type of ['tEXt', 'zTXt', 'iTXt', 'tIME', 'eXIf']) expect(chunks).not.toContain(type);
    expect(chunks).toEqual(expect.arrayContaining(['IHDR', 'iCCP', 'pHYs', 'IDAT', 'IEND']));
    for (const text of ['Rue Example', '3rd floor']) expect(contains(bytes, text)).toBe(false);
    expect((await pixels(bytes)).equals(await pixels(original))).toBe(true);
    expect((await sharp(bytes).metadata()).density).toBe(300);
  });

  it('reads only the chunk headers and metadata of a 3 MB PNG, never its image data', async () => {
    const original = withChunks(await grainyPhoto(1200, 900).png().toBuffer(), pngChunk('tEXt', Buffer.from('Comment\0secret')));
    let read = 0;
    const plan = await planMetadataStrip(
      (offset, length) => {
        read += length;
        return Promise.resolve(original.subarray(offset, offset + length));
      },
      original.byteLength,
      'png',
    );
    expect(read).toBeLessThan(4096);
    expect(plan.removed).toEqual(['text']);
    const stripped = applyStripPlan(original, plan);
    expect(stripped.byteLength).toBe(original.byteLength - 12 - 'Comment\0secret'.length);
    expect((await pixels(stripped)).equals(await pixels(original))).toBe(true);
  });
});

describe('stripping a JPEG', () => {
  it('drops comments and whatever follows the end of the image, and keeps JFIF and the profile', async () => {
    const camera = await grainyPhoto(64, 48).withIccProfile('p3').jpeg().toBuffer();
    const comment = Buffer.from([0xff, 0xfe, 0x00, 0x0e, ...Buffer.from('home, 3rd fl')]);
    const original = Buffer.concat([camera.subarray(0, 2), comment, camera.subarray(2), Buffer.from('SEFT trailer: 48.85N 2.35E')]);
    const { bytes, removed } = await stripMetadataFromBytes(original, 'jpeg');
    expect(removed).toEqual(['comment', 'trailer']);
    expect(Buffer.from(bytes).equals(camera)).toBe(true);
  });
});

describe('stripping a WebP', () => {
  it('clears the EXIF and XMP flags of VP8X and gives the RIFF its new size', async () => {
    const { bytes } = await stripMetadataFromBytes(await cameraFile('webp', 1), 'webp');
    const view = Buffer.from(bytes);
    expect(view.readUInt32LE(4)).toBe(view.byteLength - 8);
    expect(view.toString('latin1', 12, 16)).toBe('VP8X');
    expect((view[20] ?? 0) & 0x0c).toBe(0);
    expect((view[20] ?? 0) & 0x20).toBe(0x20);
  });
});
