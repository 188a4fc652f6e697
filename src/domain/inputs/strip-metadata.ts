import { planJpegStrip } from './metadata/jpeg-metadata.js';
import { planPngStrip } from './metadata/png-metadata.js';
import { RangeReader, type ReadRange } from './metadata/range-reader.js';
import type { PlanPart, RemovedMetadata, StripPlan } from './metadata/strip-plan.js';
import { planWebpStrip } from './metadata/webp-metadata.js';

export type { PlanPart, RemovedMetadata, StripPlan } from './metadata/strip-plan.js';
export type { ReadRange } from './metadata/range-reader.js';

export type StrippableFormat = 'png' | 'jpeg' | 'webp';

/**
 * What to keep of an image file so that it tells no one where it was taken or with what: EXIF (GPS, camera make,
 * model and serial numbers, lens, software, owner, dates; all of it but the orientation), XMP, IPTC, comments and
 * PNG text chunks go; the pixels, ICC profile and what a decoder needs stay byte for byte (nothing is decoded or
 * encoded). An orientation other than 1 is kept in a minimal EXIF block of its own, so the picture stands as shot.
 *
 * Built for streaming: `read(offset, length)` is asked only for headers and metadata blocks (and, in a JPEG,
 * for the compressed data in chunks, to find where the image ends), and the answer is a list of byte ranges of
 * the source to copy plus a few small inserted blocks, in order: a 50 MB file is never held whole. Runtime-neutral
 * (no node:*), so it runs on Workers too.
 *
 * A file whose structure is cut short or does not add up is refused with an ApiError INVALID_PARAMETER naming
 * `field`: it would fail the decode that checks every upload anyway, and keeping it whole could keep what it hides.
 */
export async function planMetadataStrip(read: ReadRange, size: number, format: StrippableFormat, field = 'file'): Promise<StripPlan> {
  const reader = new RangeReader(read, size, field, format);
  if (format === 'jpeg') return planJpegStrip(reader);
  if (format === 'png') return planPngStrip(reader);
  return planWebpStrip(reader);
}

/** The plan's output size in bytes, e.g. for a Content-Length before streaming it. */
export const strippedSize = (plan: StripPlan): number => plan.parts.reduce((total, part) => total + partLength(part), 0);

const partLength = (part: PlanPart): number => (part instanceof Uint8Array ? part.byteLength : part.to - part.from);

/** Applies a plan to the whole source, for callers that hold it in memory. */
export function applyStripPlan(bytes: Uint8Array, plan: StripPlan): Uint8Array {
  const out = new Uint8Array(strippedSize(plan));
  let at = 0;
  for (const part of plan.parts) {
    const piece = part instanceof Uint8Array ? part : bytes.subarray(part.from, part.to);
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/** The buffered path: the file without its metadata (the same bytes when there was none), and what was removed. */
export async function stripMetadataFromBytes(
  bytes: Uint8Array,
  format: StrippableFormat,
  field = 'file',
): Promise<{ bytes: Uint8Array; removed: RemovedMetadata[] }> {
  const plan = await planMetadataStrip((offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)), bytes.byteLength, format, field);
  if (plan.removed.length === 0) return { bytes, removed: [] };
  return { bytes: applyStripPlan(bytes, plan), removed: plan.removed };
}
