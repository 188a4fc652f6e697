import type { RemovedMetadata } from './strip-plan.js';

export interface ExifSummary {
  /** 2 to 8 when the image is to be turned or mirrored; undefined for 1, none, or one that cannot be read. */
  orientation?: number;
  /** What the block held, for the plan's `removed`: always `exif`, plus `gps` and `device` when present. */
  kinds: RemovedMetadata[];
}

const ORIENTATION = 0x0112;
const GPS_IFD = 0x8825;
const EXIF_IFD = 0x8769;
/** Make, Model, Software, Artist, HostComputer, Copyright (IFD0); owner, serials and lens (Exif IFD). */
const DEVICE_TAGS = new Set([0x010f, 0x0110, 0x0131, 0x013b, 0x013c, 0x8298, 0xa430, 0xa431, 0xa432, 0xa433, 0xa434, 0xa435]);
/** More entries than this in one IFD is not a camera's file; reading stops there. */
const MAX_ENTRIES = 1000;

/**
 * What an EXIF block (a TIFF structure, with or without the `Exif\0\0` prefix JPEG uses) holds, read for the log and
 * for the orientation to keep. The block is dropped whatever it holds, so a damaged one is no error: what cannot
 * be read is simply not reported. Every read is bounds-checked; nothing here can throw.
 */
export function summarizeExif(block: Uint8Array): ExifSummary {
  const tiff = block.byteLength >= 6 && block[0] === 0x45 && block[1] === 0x78 && block[2] === 0x69 && block[3] === 0x66 ? block.subarray(6) : block;
  const kinds = new Set<RemovedMetadata>(['exif']);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return { kinds: [...kinds] };
  const u16 = (at: number): number | undefined =>
    at < 0 || at + 2 > tiff.byteLength ? undefined : little ? (tiff[at] ?? 0) | ((tiff[at + 1] ?? 0) << 8) : ((tiff[at] ?? 0) << 8) | (tiff[at + 1] ?? 0);
  const u32 = (at: number): number | undefined => {
    const high = u16(little ? at + 2 : at);
    const low = u16(little ? at : at + 2);
    return high === undefined || low === undefined ? undefined : high * 0x10000 + low;
  };
  let orientation: number | undefined;
  const readIfd = (offset: number | undefined, onEntry: (tag: number, entry: number) => void): void => {
    if (offset === undefined) return;
    const count = u16(offset);
    if (count === undefined) return;
    for (let i = 0; i < Math.min(count, MAX_ENTRIES); i += 1) {
      const entry = offset + 2 + i * 12;
      const tag = u16(entry);
      if (tag === undefined) return;
      onEntry(tag, entry);
    }
  };
  let exifIfd: number | undefined;
  readIfd(u32(4), (tag, entry) => {
    if (tag === GPS_IFD) kinds.add('gps');
    if (DEVICE_TAGS.has(tag)) kinds.add('device');
    if (tag === EXIF_IFD) exifIfd = u32(entry + 8);
    if (tag === ORIENTATION && u16(entry + 2) === 3) orientation = u16(entry + 8);
  });
  readIfd(exifIfd, (tag) => {
    if (DEVICE_TAGS.has(tag)) kinds.add('device');
  });
  const turned = orientation !== undefined && orientation >= 2 && orientation <= 8;
  return { ...(turned ? { orientation } : {}), kinds: [...kinds] };
}

/** A TIFF structure holding one tag, the orientation (big-endian: `MM`, IFD0 at 8, no next IFD). */
export function orientationOnlyTiff(orientation: number): Uint8Array {
  return Uint8Array.from([
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08,
    0x00,
    0x01,
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    orientation & 0xff,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
  ]);
}
