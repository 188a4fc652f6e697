import { crc32 } from 'node:zlib';

/** A PNG chunk: length, type, data and the CRC of type and data, as a decoder checks it. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.byteLength);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `png` with a chunk put right after its IHDR (which always ends at byte 33). */
export const withChunkAfterHeader = (png: Uint8Array, chunk: Buffer): Buffer => Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);

/** Byte offset of the first chunk of `type` in a PNG (its length field), or -1. */
export function pngChunkOffset(png: Uint8Array, type: string): number {
  let at = 8;
  while (at + 8 <= png.byteLength) {
    const length = Buffer.from(png.buffer, png.byteOffset + at, 4).readUInt32BE();
    if (Buffer.from(png.subarray(at + 4, at + 8)).toString('latin1') === type) return at;
    at += 12 + length;
  }
  return -1;
}

/** Byte offset of a JPEG marker (0xFF then `marker`), or -1: the SOS (0xDA) that starts the compressed data. */
export const jpegMarkerOffset = (jpeg: Uint8Array, marker: number): number => Buffer.from(jpeg).indexOf(Buffer.from([0xff, marker]), 2);
