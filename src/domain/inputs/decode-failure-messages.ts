import type { ImageType } from '../../ports/image-codec.js';
import { ApiError } from '../errors.js';

/**
 * Why a file whose header looked right failed to decode, in our own words. The decoders' own text (libvips:
 * `VipsJpeg: premature end of JPEG image`, `vipspng: libpng read error`, `webp: unable to parse image`; fast-png on
 * Workers) names libraries and internals a caller can do nothing with: it goes to the log, never to the answer.
 */
export type DecodeFailure = 'no-image-data' | 'truncated' | 'bad-header' | 'corrupt' | 'unsupported' | 'too-large';

type Format = 'PNG' | 'JPEG' | 'WebP';

const FORMATS: Record<ImageType, Format> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** One sentence per failure; `a` is "a PNG", "a JPEG", "a WebP" (or "an image" when the type is unknown). */
const SENTENCES: Record<DecodeFailure, (format: string, a: string) => string> = {
  'no-image-data': (format) => `it is not a valid ${format}: the file ends before its image data`,
  truncated: (format) => `it is not a valid ${format}: the file is cut short partway through its image data`,
  'bad-header': (format) => `it is not a valid ${format}: its header is damaged`,
  corrupt: (format) => `it is not a valid ${format}: its image data is damaged`,
  unsupported: (_format, a) => `it is ${a} of a kind this server does not decode`,
  'too-large': (_format, a) => `it is ${a} larger than this server decodes`,
};

/**
 * The decoders' words, most specific first. A message may carry several (libvips joins its warnings): JPEG's
 * "missing SOS marker" comes with "premature end", and means the file stops before any image data.
 */
const BEFORE_BYTES: readonly (readonly [RegExp, DecodeFailure])[] = [
  [/missing SOS marker|no image data/i, 'no-image-data'],
  [/pixel limit/i, 'too-large'],
];
const AFTER_BYTES: readonly (readonly [RegExp, DecodeFailure])[] = [
  [/unsupported image format|corrupt header|bad signature|IHDR|not a (JPEG|PNG|WebP)|unable to parse/i, 'bad-header'],
  [/unsupported|not supported|unknown marker|12-bit|arithmetic/i, 'unsupported'],
  [/CRC|decompress|invalid (code|distance|block)|huffman/i, 'corrupt'],
  [/premature end|truncated|unexpected end|end of (file|data|stream)|outside the bounds/i, 'truncated'],
];

const firstMatch = (patterns: readonly (readonly [RegExp, DecodeFailure])[], reason: string): DecodeFailure | undefined =>
  patterns.find(([pattern]) => pattern.test(reason))?.[1];

/** What went wrong, from the decoder's message and, where it says too little (libpng, libwebp), from the bytes. */
export function classifyDecodeFailure(type: ImageType | undefined, bytes: Uint8Array | undefined, reason: string): DecodeFailure {
  // libwebp answers "unable to parse image" and libpng "read error" whatever is wrong: a file shorter than its own
  // container says is cut short, which tells the caller what to do (send it again, whole).
  return firstMatch(BEFORE_BYTES, reason) ?? (endsEarly(type, bytes) ? 'truncated' : undefined) ?? firstMatch(AFTER_BYTES, reason) ?? 'corrupt';
}

/** The sentence for a failure, e.g. "it is not a valid JPEG: the file ends before its image data". */
export function describeDecodeFailure(type: ImageType | undefined, failure: DecodeFailure): string {
  const format = type === undefined ? 'image' : FORMATS[type];
  const a = type === undefined ? 'an image' : type === 'image/png' ? 'a PNG' : `a ${format}`;
  return SENTENCES[failure](format, a);
}

/** True when the file stops before its container ends: a WebP shorter than its RIFF size, a PNG before IEND. */
function endsEarly(type: ImageType | undefined, bytes: Uint8Array | undefined): boolean {
  // A staged file is not in memory: its decoder's words alone say what is wrong with it.
  if (bytes === undefined) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/webp') return bytes.byteLength < 12 || bytes.byteLength < view.getUint32(4, true) + 8;
  if (type !== 'image/png') return false;
  // Chunks from the signature on: length, type, data, CRC. The walk is over a few chunk headers, not the data.
  for (let at = 8; ;) {
    if (at + 12 > bytes.byteLength) return true;
    const length = view.getUint32(at);
    const isEnd = bytes[at + 4] === 0x49 && bytes[at + 5] === 0x45 && bytes[at + 6] === 0x4e && bytes[at + 7] === 0x44;
    if (at + 12 + length > bytes.byteLength) return true;
    if (isEnd) return false;
    at += 12 + length;
  }
}

/**
 * The 400 for a file `field` that failed to decode, in our words; the decoder's own message rides along as the
 * error's cause, which the error handler logs (at warn, with the request) and never renders.
 */
export function decodeFailure(field: string, type: ImageType | undefined, bytes: Uint8Array | undefined, error: unknown): ApiError {
  const reason = error instanceof Error ? error.message : String(error);
  const sentence = describeDecodeFailure(type, classifyDecodeFailure(type, bytes, reason));
  const message = `${field} could not be decoded: ${sentence}; send the complete PNG, JPEG or WebP file`;
  return new ApiError('INVALID_PARAMETER', `Invalid ${field}`, { field, message }, { cause: `${field}: ${reason}` });
}
