import { invalidParameter } from '../../errors.js';

/** Reads `length` bytes of the source from `offset`; may return fewer only at the end of the source. */
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

/** The source as the parsers see it: every read checked against the size, so a cut-short file is a typed error. */
export class RangeReader {
  constructor(
    private readonly read: ReadRange,
    readonly size: number,
    private readonly field: string,
    private readonly format: string,
  ) {}

  /** Exactly `length` bytes at `offset`, or the refusal of a damaged file. */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    if (offset < 0 || length < 0 || offset + length > this.size) this.fail(offset, 'it is cut short');
    if (length === 0) return new Uint8Array(0);
    const got = await this.read(offset, length);
    if (got.byteLength < length) this.fail(offset, 'it is cut short');
    return got.byteLength === length ? got : got.subarray(0, length);
  }

  /** Up to `length` bytes at `offset`, fewer at the end: for scanning. */
  async upTo(offset: number, length: number): Promise<Uint8Array> {
    return this.bytes(offset, Math.max(0, Math.min(length, this.size - offset)));
  }

  fail(offset: number, why: string): never {
    throw invalidParameter(
      this.field,
      `${this.field} is not a well-formed ${this.format.toUpperCase()} file (${why} at byte ${offset}): send the image as the camera or editor saved it`,
    );
  }
}

export const u16be = (b: Uint8Array, at: number): number => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
export const u32be = (b: Uint8Array, at: number): number =>
  (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
export const u32le = (b: Uint8Array, at: number): number =>
  (((b[at + 3] ?? 0) << 24) | ((b[at + 2] ?? 0) << 16) | ((b[at + 1] ?? 0) << 8) | (b[at] ?? 0)) >>> 0;
export const ascii = (b: Uint8Array, at: number, length: number): string => String.fromCharCode(...b.subarray(at, at + length));
export const startsWith = (b: Uint8Array, text: string): boolean => b.byteLength >= text.length && ascii(b, 0, text.length) === text;
