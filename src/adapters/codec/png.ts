/**
 * PNG reading and writing in plain JavaScript (fast-png, over fflate), for runtimes without sharp (Cloudflare
 * Workers). Pixels come out as 8-bit RGBA whatever the file holds (grey, palette, 1..16 bits, tRNS), as sharp's
 * `ensureAlpha().raw({ depth: 'uchar' })` gives them, so code written against sharp's pixels sees the same.
 */
import { convertIndexedToRgb, decode, encode, type DecodedPng } from 'fast-png';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Said for any input that is not a PNG: the caller answers it as the client's mistake (4xx), in these words. */
export const PNG_INPUT_ONLY = 'this runtime reads PNG images only: the image is not a PNG (JPEG and WebP need the Node runtime)';

export const isPng = (bytes: Uint8Array): boolean => bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);

export interface PngHeader {
  width: number;
  height: number;
  /** An alpha channel (grey+alpha, RGBA) or a tRNS chunk: sharp's `hasAlpha`. */
  hasAlpha: boolean;
}

export interface RgbaImage {
  /** 8-bit RGBA, row by row. */
  data: Uint8Array;
  width: number;
  height: number;
  hasAlpha: boolean;
}

const chunkType = (bytes: Uint8Array, at: number): string => String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

/**
 * The size and alpha from the chunks before the image data, without inflating anything: cheap enough to refuse a
 * file that claims billions of pixels before a single buffer is allocated for them.
 */
export function readPngHeader(bytes: Uint8Array): PngHeader {
  if (!isPng(bytes)) throw new Error(PNG_INPUT_ONLY);
  // Signature (8), then IHDR: length (4), type (4), 13 bytes of data, CRC (4).
  if (bytes.length < 33) throw new Error('the PNG is cut short before the end of its header (IHDR)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(8) !== 13 || chunkType(bytes, 12) !== 'IHDR') throw new Error('the PNG does not start with its header chunk (IHDR)');
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  if (width === 0 || height === 0) throw new Error(`the PNG claims a size of ${width}x${height}`);
  const colourType = bytes[25];
  let hasAlpha = colourType === 4 || colourType === 6;
  // tRNS, which gives a palette or a key colour transparency, comes before the first IDAT.
  for (let at = 33; !hasAlpha && at + 8 <= bytes.length; at += 12 + view.getUint32(at)) {
    const type = chunkType(bytes, at + 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'tRNS') hasAlpha = true;
  }
  return { width, height, hasAlpha };
}

/**
 * Decodes every pixel, checking each chunk's CRC, so a cut-short or corrupt file rejects here with the decoder's
 * reason. With `maxPixels` the header is read first and a larger image refused before decoding.
 */
export function decodePngRgba(bytes: Uint8Array, maxPixels?: number): RgbaImage {
  const header = readPngHeader(bytes);
  if (maxPixels !== undefined && header.width * header.height > maxPixels) {
    throw new Error(`the image (${header.width}x${header.height}) exceeds the pixel limit of ${maxPixels} pixels`);
  }
  let png: DecodedPng;
  try {
    png = decode(bytes, { checkCrc: true });
  } catch (error) {
    throw new Error(`the PNG could not be decoded (cut short or corrupt): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return { data: toRgba(png), width: png.width, height: png.height, hasAlpha: header.hasAlpha };
}

/** Encodes 8-bit pixels, 1 (grey), 3 (RGB) or 4 (RGBA) channels. */
export function encodePng(data: Uint8Array, width: number, height: number, channels: 1 | 3 | 4, level: ZlibLevel): Uint8Array {
  return encode({ width, height, data, depth: 8, channels }, { zlib: { level } });
}

export type ZlibLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/** Any PNG layout to 8-bit RGBA: grey replicated, palette looked up, 16 bits cut to 8 (as libvips does), tRNS applied. */
function toRgba(png: DecodedPng): Uint8Array {
  const { width, height, depth } = png;
  const pixels = width * height;
  const out = new Uint8Array(pixels * 4);
  if (png.palette !== undefined) {
    const rgb = convertIndexedToRgb(png);
    const channels = rgb.length / pixels;
    for (let p = 0; p < pixels; p++) {
      out[p * 4] = rgb[p * channels] ?? 0;
      out[p * 4 + 1] = rgb[p * channels + 1] ?? 0;
      out[p * 4 + 2] = rgb[p * channels + 2] ?? 0;
      out[p * 4 + 3] = channels === 4 ? (rgb[p * channels + 3] ?? 255) : 255;
    }
    return out;
  }
  const channels = png.channels;
  const data = png.data;
  const max = 2 ** depth - 1;
  const rowBytes = Math.ceil((width * depth * channels) / 8);
  // Samples at the file's depth: packed below 8 bits, one array element each at 8 and 16.
  const sample =
    depth >= 8
      ? (p: number, c: number): number => data[p * channels + c] ?? 0
      : (p: number, c: number): number => {
          const y = Math.floor(p / width);
          const bit = ((p - y * width) * channels + c) * depth;
          return ((data[y * rowBytes + (bit >> 3)] ?? 0) >> (8 - depth - (bit & 7))) & max;
        };
  const to8 =
    depth === 16 ? (value: number): number => value >> 8 : depth === 8 ? (value: number): number => value : (value: number): number => (value * 255) / max;
  const key = png.transparency;
  const colour = channels >= 3;
  const hasAlpha = channels === 2 || channels === 4;
  for (let p = 0; p < pixels; p++) {
    const o = p * 4;
    const r = sample(p, 0);
    const g = colour ? sample(p, 1) : r;
    const b = colour ? sample(p, 2) : r;
    out[o] = to8(r);
    out[o + 1] = to8(g);
    out[o + 2] = to8(b);
    if (hasAlpha) out[o + 3] = to8(sample(p, channels - 1));
    else if (key !== undefined && key.length > 0 && r === key[0] && (!colour || (g === key[1] && b === key[2]))) out[o + 3] = 0;
    else out[o + 3] = 255;
  }
  return out;
}
