import { orientationOnlyTiff, summarizeExif } from './exif-summary.js';
import { ascii, u32be, type RangeReader } from './range-reader.js';
import { PlanBuilder, type RemovedMetadata, type StripPlan } from './strip-plan.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Chunks that say who, where or when; everything else (IHDR, PLTE, IDAT, tRNS, iCCP, sRGB, gAMA, cHRM, pHYs...) stays. */
const DROPPED: Record<string, RemovedMetadata> = { tEXt: 'text', zTXt: 'text', iTXt: 'text', tIME: 'time', eXIf: 'exif' };
/** An eXIf chunk larger than this is dropped unread: no camera writes one, and only the orientation is wanted. */
const MAX_EXIF_READ = 1024 * 1024;

/** Drops the text, time and EXIF chunks (keeping a non-default orientation in a minimal eXIf), and anything after IEND. */
export async function planPngStrip(reader: RangeReader): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const signature = await reader.bytes(0, 8);
  if (SIGNATURE.some((byte, i) => signature[i] !== byte)) reader.fail(0, 'it does not start as a PNG');
  plan.keep(0, 8);
  let at = 8;
  for (;;) {
    const head = await reader.bytes(at, 8);
    const length = u32be(head, 0);
    const type = ascii(head, 4, 4);
    const end = at + 12 + length;
    if (end > reader.size) reader.fail(at, 'it is cut short');
    const dropped = DROPPED[type];
    if (dropped === undefined) {
      plan.keep(at, end);
    } else {
      plan.remove(dropped);
      // libpng and libvips keep XMP in a text chunk (iTXt, or zTXt) under this keyword.
      if (dropped === 'text' && length >= 17 && ascii(await reader.bytes(at + 8, 17), 0, 17) === 'XML:com.adobe.xmp') plan.remove('xmp');
      if (type === 'eXIf' && length <= MAX_EXIF_READ) {
        const summary = summarizeExif(await reader.bytes(at + 8, length));
        plan.remove(...summary.kinds);
        if (summary.orientation !== undefined) plan.insert(chunk('eXIf', orientationOnlyTiff(summary.orientation)));
      }
    }
    if (type === 'IEND') {
      if (end < reader.size) plan.remove('trailer');
      return plan.build();
    }
    at = end;
  }
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.byteLength);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.byteLength, crc32(out.subarray(4, 8 + data.byteLength)));
  return out;
}

let table: Uint32Array | undefined;

/** PNG's CRC-32 (ISO 3309), over the chunk's type and data. */
export function crc32(bytes: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (table[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
