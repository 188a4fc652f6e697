import { orientationOnlyTiff, summarizeExif } from './exif-summary.js';
import { startsWith, u16be, type RangeReader } from './range-reader.js';
import { PlanBuilder, type StripPlan } from './strip-plan.js';

const SCAN_CHUNK = 64 * 1024;
const SOS = 0xda;
const EOI = 0xd9;

/**
 * Segments kept: those a decoder reads (tables, frame, scans), and of the application segments only JFIF/JFXX
 * (APP0), the ICC profile (APP2 `ICC_PROFILE`) and Adobe's colour transform (APP14). Every APP1 (EXIF, XMP),
 * APP13 (Photoshop, IPTC), other APPn (maker data, MPF), comments, and anything after the end of the image
 * (appended pictures, vendor trailers) go.
 */
export async function planJpegStrip(reader: RangeReader): Promise<StripPlan> {
  const plan = new PlanBuilder();
  const soi = await reader.bytes(0, 2);
  if (soi[0] !== 0xff || soi[1] !== 0xd8) reader.fail(0, 'it does not start as a JPEG');
  plan.keep(0, 2);
  let at = 2;
  for (;;) {
    const head = await reader.bytes(at, 2);
    if (head[0] !== 0xff) reader.fail(at, 'a segment does not start with a marker');
    const marker = head[1] ?? 0;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === EOI) {
      plan.keep(at, at + 2);
      if (at + 2 < reader.size) plan.remove('trailer');
      return plan.build();
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      plan.keep(at, at + 2);
      at += 2;
      continue;
    }
    const length = u16be(await reader.bytes(at + 2, 2), 0);
    if (length < 2) reader.fail(at, 'a segment has an impossible length');
    const end = at + 2 + length;
    if (end > reader.size) reader.fail(at, 'it is cut short');
    const kept = await keepSegment(reader, plan, marker, at, end);
    if (kept) plan.keep(at, end);
    at = marker === SOS ? await endOfScan(reader, plan, end) : end;
  }
}

async function keepSegment(reader: RangeReader, plan: PlanBuilder, marker: number, at: number, end: number): Promise<boolean> {
  if (marker < 0xe0 || marker > 0xef) {
    if (marker !== 0xfe) return true;
    plan.remove('comment');
    return false;
  }
  const payload = await reader.bytes(at + 4, Math.min(end - at - 4, 32));
  if (marker === 0xe0 || (marker === 0xe2 && startsWith(payload, 'ICC_PROFILE\0')) || (marker === 0xee && startsWith(payload, 'Adobe'))) return true;
  if (marker === 0xe1 && startsWith(payload, 'Exif\0')) {
    const summary = summarizeExif(await reader.bytes(at + 4, end - at - 4));
    plan.remove(...summary.kinds);
    if (summary.orientation !== undefined) plan.insert(exifSegment(summary.orientation));
  } else if (marker === 0xe1 && startsWith(payload, 'http://ns.adobe.com/')) plan.remove('xmp');
  else if (marker === 0xed) plan.remove('iptc');
  else plan.remove('other');
  return false;
}

/** APP1 with `Exif\0\0` and a TIFF structure holding only the orientation. */
function exifSegment(orientation: number): Uint8Array {
  const tiff = orientationOnlyTiff(orientation);
  const length = 2 + 6 + tiff.byteLength;
  const segment = new Uint8Array(2 + length);
  segment.set([0xff, 0xe1, length >> 8, length & 0xff, 0x45, 0x78, 0x69, 0x66, 0, 0]);
  segment.set(tiff, 10);
  return segment;
}

/**
 * Keeps the entropy-coded data after a scan header, up to the next marker (a 0xFF not followed by a stuffed 0x00
 * or a restart marker), read in chunks; returns where that marker is.
 */
async function endOfScan(reader: RangeReader, plan: PlanBuilder, from: number): Promise<number> {
  let at = from;
  while (at < reader.size) {
    // One byte of overlap, so a marker split across two chunks is seen whole.
    const chunk = await reader.upTo(at, SCAN_CHUNK + 1);
    for (let i = 0; i + 1 < chunk.byteLength; i += 1) {
      if (chunk[i] !== 0xff) continue;
      const next = chunk[i + 1] ?? 0;
      if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
      plan.keep(from, at + i);
      return at + i;
    }
    if (chunk.byteLength <= 1) break;
    at += chunk.byteLength - 1;
  }
  return reader.fail(reader.size, 'the image data has no end marker');
}
