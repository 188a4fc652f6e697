import type { ImageType } from '../../ports/image-codec.js';

/**
 * Reads an image's type and size from its first bytes, without decoding it: cheap enough for the event loop, and
 * enough to refuse a file that is not a PNG, JPEG or WebP, or that claims more pixels than the service decodes
 * (a decompression bomb is a small file whose header promises a huge image). Runtime-neutral: no Node APIs.
 */
export interface ImageHeader {
  contentType: ImageType;
  extension: 'png' | 'jpg' | 'webp';
  width: number;
  height: number;
  /** The header says the pixels carry transparency (PNG colour type with alpha or a tRNS chunk; WebP's alpha flag). */
  hasAlpha: boolean;
}

/** Undefined when the bytes are not a PNG, JPEG or WebP this reader understands. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return readPng(bytes);
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return readJpeg(bytes);
  if (startsWith(bytes, ASCII_RIFF) && startsWith(bytes.subarray(8), ASCII_WEBP)) return readWebp(bytes);
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ASCII_RIFF = [0x52, 0x49, 0x46, 0x46];
const ASCII_WEBP = [0x57, 0x45, 0x42, 0x50];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean => bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
const u16be = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u32be = (b: Uint8Array, at: number): number => u16be(b, at) * 65536 + u16be(b, at + 2);
const u24le = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16);
const ascii = (b: Uint8Array, at: number, length: number): string => String.fromCharCode(...b.subarray(at, at + length));

function readPng(b: Uint8Array): ImageHeader | undefined {
  // IHDR is always the first chunk: length(4) "IHDR"(4) width(4) height(4) depth(1) colour type(1).
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') return undefined;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  const colourType = b[25] ?? 0;
  let hasAlpha = colourType === 4 || colourType === 6;
  // A tRNS chunk (before IDAT) gives palette and grey/RGB images transparency.
  for (let at = 8; !hasAlpha && at + 8 <= b.length;) {
    const length = u32be(b, at);
    const type = ascii(b, at + 4, 4);
    if (type === 'tRNS') hasAlpha = true;
    if (type === 'IDAT' || type === 'IEND') break;
    at += 12 + length;
  }
  return { contentType: 'image/png', extension: 'png', width, height, hasAlpha };
}

function readJpeg(b: Uint8Array): ImageHeader | undefined {
  // Walk the markers to the first start-of-frame (SOF0..SOF15, except DHT C4, JPG C8 and DAC CC).
  for (let at = 2; at + 9 < b.length;) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = u16be(b, at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { contentType: 'image/jpeg', extension: 'jpg', height: u16be(b, at + 5), width: u16be(b, at + 7), hasAlpha: false };
    }
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function readWebp(b: Uint8Array): ImageHeader | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) {
    return { contentType: 'image/webp', extension: 'webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1, hasAlpha: ((b[20] ?? 0) & 0x10) !== 0 };
  }
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return {
      contentType: 'image/webp',
      extension: 'webp',
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      hasAlpha: ((bits >>> 28) & 1) === 1,
    };
  }
  if (chunk === 'VP8 ' && b.length >= 30 && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { contentType: 'image/webp', extension: 'webp', width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, hasAlpha: false };
  }
  return undefined;
}

const u16le = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
