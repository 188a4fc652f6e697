import { orientationOnlyTiff, summarizeExif } from './exif-summary.js';
import { ascii, u32le, type RangeReader } from './range-reader.js';
import { PlanBuilder, type StripPlan } from './strip-plan.js';

const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;
const MAX_EXIF_READ = 1024 * 1024;

/**
 * Drops the EXIF and XMP chunks (keeping a non-default orientation in a minimal EXIF chunk), clears their flags in
 * VP8X and writes the RIFF size anew; ICCP, ANIM/ANMF, ALPH and the image data stay. Anything past the RIFF goes.
 */
export async function planWebpStrip(reader: RangeReader): Promise<StripPlan> {
  const header = await reader.bytes(0, 12);
  if (ascii(header, 0, 4) !== 'RIFF' || ascii(header, 8, 4) !== 'WEBP') reader.fail(0, 'it does not start as a WebP');
  const riffEnd = 8 + u32le(header, 4);
  if (riffEnd > reader.size) reader.fail(4, 'it is cut short');
  const plan = new PlanBuilder();
  // The RIFF header and VP8X are rewritten only when something goes; until then, parts are collected with offsets.
  const body: ({ from: number; to: number } | Uint8Array)[] = [];
  let vp8x: { at: number; data: Uint8Array } | undefined;
  let orientation: number | undefined;
  let at = 12;
  while (at < riffEnd) {
    const head = await reader.bytes(at, 8);
    const type = ascii(head, 0, 4);
    const length = u32le(head, 4);
    const end = at + 8 + length + (length % 2);
    if (end > riffEnd && at + 8 + length > riffEnd) reader.fail(at, 'it is cut short');
    const chunkEnd = Math.min(end, riffEnd);
    if (type === 'EXIF') {
      plan.remove('exif');
      if (length <= MAX_EXIF_READ) {
        const summary = summarizeExif(await reader.bytes(at + 8, length));
        plan.remove(...summary.kinds);
        orientation = summary.orientation;
      }
    } else if (type === 'XMP ') {
      plan.remove('xmp');
    } else if (type === 'VP8X' && at === 12 && length >= 10) {
      vp8x = { at, data: await reader.bytes(at, 8 + length) };
      body.push(new Uint8Array(0));
    } else {
      body.push({ from: at, to: chunkEnd });
    }
    at = chunkEnd;
  }
  const removed = plan.build().removed;
  if (removed.length === 0 && riffEnd === reader.size) {
    plan.keep(0, reader.size);
    return plan.build();
  }
  if (riffEnd < reader.size) plan.remove('trailer');

  const exif = orientation === undefined ? undefined : exifChunk(orientation);
  const parts = [...body];
  if (vp8x !== undefined) {
    const rewritten = vp8x.data.slice();
    rewritten[8] = ((rewritten[8] ?? 0) & ~(EXIF_FLAG | XMP_FLAG)) | (exif === undefined ? 0 : EXIF_FLAG);
    parts[parts.findIndex((part) => part instanceof Uint8Array && part.byteLength === 0)] = rewritten;
  }
  // EXIF belongs after the image data (the container's order); a simple-format file without VP8X cannot flag one.
  if (exif !== undefined && vp8x !== undefined) parts.push(exif);
  const riffSize = 4 + parts.reduce((total, part) => total + (part instanceof Uint8Array ? part.byteLength : part.to - part.from), 0);
  const riff = header.slice();
  new DataView(riff.buffer, riff.byteOffset).setUint32(4, riffSize, true);
  plan.insert(riff);
  for (const part of parts) {
    if (part instanceof Uint8Array) plan.insert(part);
    else plan.keep(part.from, part.to);
  }
  return plan.build();
}

function exifChunk(orientation: number): Uint8Array {
  const tiff = orientationOnlyTiff(orientation);
  const out = new Uint8Array(8 + tiff.byteLength + (tiff.byteLength % 2));
  out.set([0x45, 0x58, 0x49, 0x46]);
  new DataView(out.buffer).setUint32(4, tiff.byteLength, true);
  out.set(tiff, 8);
  return out;
}
