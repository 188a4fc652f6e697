import type { ProviderImage } from '../../ports/image-provider.js';
import { base64Image, isRecord } from './http-support.js';
import { sniffImageType } from './sniff-image-type.js';

/** A JSON answer that carries its image as one base64 string, read by readJsonImage. */
export interface JsonImageBody {
  /** The answer as JSON.parse reads it (an empty record when it is not a JSON object), the image's string replaced by ''. */
  json: Record<string, unknown>;
  isJson: boolean;
  /** The image: `holder(json)[key]` decoded, as base64Image decodes it, when that is a non-empty string. */
  image?: ProviderImage;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const EQUALS = 0x3d;
const isJsonSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** The start of the answer searched for the key: past this, the answer is left to the general parser. */
const MAX_HEAD_BYTES = 256 * 1024;
/** Room for the image when the answer says no Content-Length (chunked); doubled as needed. */
const UNSIZED_CAPACITY = 1024 * 1024;

/**
 * Reads a provider's JSON answer whose image is a base64 string at `holder(json)[key]` (OpenAI's `data[0].b64_json`),
 * decoding the image as the body streams in instead of joining ~2.6 MB of body, decoding it as text, parsing it and
 * decoding the string again: each of those is a fresh allocation of the image's size, and on a loaded machine each costs
 * more than the decoding itself. The rest of the answer (usage, a URL, an error) is parsed as JSON.parse would.
 *
 * Taken only where it reads exactly what the general path reads: the value is a plain string (no escape: an encoder
 * that writes `\/`, or `\n` between MIME lines, goes the general way), of base64 characters with padding only at its end
 * (each piece's decoded length is checked), the only `"key"` in the rest of the answer, and no `\u` there (so no
 * other key can spell `key`). Anything else is parsed whole, as before: never wrong, only slower. One leniency: a raw
 * control character inside the value (invalid JSON) is not looked for; the decoder reports it by a short piece.
 * `key` is letters, digits and `_`.
 */
export async function readJsonImage(response: Response, key: string, holder: (json: Record<string, unknown>) => unknown): Promise<JsonImageBody> {
  const reader = new ImageFieldReader(key, capacityFor(response.headers.get('Content-Length')));
  const body = response.body?.getReader();
  for (;;) {
    const read = await body?.read();
    if (read === undefined || read.done) break;
    reader.push(read.value);
  }
  return reader.finish(holder);
}

function capacityFor(contentLength: string | null): number {
  const length = Number(contentLength ?? '');
  return Number.isSafeInteger(length) && length > 0 ? Math.ceil((length * 3) / 4) + 3 : UNSIZED_CAPACITY;
}

const view = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Base64 text in pieces, decoded into one growing array; `ok` turns false at the first piece that is not clean base64. */
class Base64Sink {
  private bytes: Uint8Array;
  private target: Buffer;
  length = 0;
  ok = true;
  /** The 0 to 3 characters that do not yet make a group of four. */
  private carry = '';
  private padded = false;

  constructor(capacity: number) {
    // Zeroed by the system as pages are first touched: no fill pass over memory the decoder writes anyway.
    this.bytes = new Uint8Array(capacity);
    this.target = view(this.bytes);
  }

  push(chunk: Buffer, from: number, to: number): void {
    if (!this.ok) return;
    let start = from;
    if (this.carry !== '') {
      // The group the last piece left open is closed with this one's first characters and decoded alone, so the
      // rest is decoded straight from its own bytes: joining strings would copy every piece once more.
      const end = Math.min(to, start + 4 - this.carry.length);
      this.carry += chunk.toString('latin1', start, end);
      start = end;
      if (this.carry.length < 4) return;
      this.decode(this.carry);
      this.carry = '';
    }
    const whole = start + (to - start) - ((to - start) % 4);
    if (whole > start) this.decode(chunk.toString('latin1', start, whole));
    if (to > whole) this.carry = chunk.toString('latin1', whole, to);
  }

  /** The decoded image, or undefined when the text was not clean base64 (or empty). */
  end(): Uint8Array | undefined {
    // Unpadded base64 ends with 2 or 3 characters, which decode to 1 or 2 bytes; a single one is no byte at all.
    if (this.carry.length === 1) this.ok = false;
    else this.decode(this.carry);
    return this.ok && this.length > 0 ? this.bytes.subarray(0, this.length) : undefined;
  }

  private decode(text: string): void {
    if (text === '' || !this.ok) return;
    // Padding ends base64: more text after it would be decoded differently as one string.
    if (this.padded) {
      this.ok = false;
      return;
    }
    const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
    const expected = Math.floor(((text.length - pad) * 3) / 4);
    if (this.length + expected > this.bytes.length) this.grow(this.length + expected);
    const written = this.target.write(text, this.length, 'base64');
    // A character outside the alphabet is skipped by the decoder, which then writes less than the text's length says.
    if (written !== expected || (pad > 0 && text.charCodeAt(text.length - pad - 1) === EQUALS)) this.ok = false;
    this.length += written;
    this.padded = pad > 0;
  }

  private grow(needed: number): void {
    const bytes = new Uint8Array(Math.max(needed, this.bytes.length * 2));
    bytes.set(this.bytes.subarray(0, this.length));
    this.bytes = bytes;
    this.target = view(bytes);
  }
}

/** Where the reader is: before the value (reading the head), inside it, after it (the tail), or reading everything. */
type Phase = 'head' | 'value' | 'tail' | 'whole';

class ImageFieldReader {
  /** Every chunk as received, for the general path; references only, nothing is copied. */
  private readonly chunks: Buffer[] = [];
  private head: Buffer = Buffer.alloc(0);
  /** The head through the value's opening quote, once found. */
  private before: Buffer | undefined;
  private readonly after: Buffer[] = [];
  private phase: Phase = 'head';
  private readonly sink: Base64Sink;

  constructor(
    private readonly key: string,
    capacity: number,
  ) {
    this.sink = new Base64Sink(capacity);
  }

  push(bytes: Uint8Array): void {
    const chunk = view(bytes);
    this.chunks.push(chunk);
    if (this.phase === 'head') this.readHead(chunk);
    else if (this.phase === 'value') this.readValue(chunk, 0);
    else if (this.phase === 'tail') this.after.push(chunk);
  }

  private readHead(chunk: Buffer): void {
    this.head = this.head.length === 0 ? chunk : Buffer.concat([this.head, chunk]);
    const start = valueStart(this.head, this.key);
    if (start === 'more') {
      if (this.head.length > MAX_HEAD_BYTES) this.phase = 'whole';
      return;
    }
    if (start === 'none') {
      this.phase = 'whole';
      return;
    }
    this.before = this.head.subarray(0, start);
    this.phase = 'value';
    this.readValue(this.head, start);
  }

  private readValue(chunk: Buffer, from: number): void {
    const quote = chunk.indexOf(QUOTE, from);
    const to = quote < 0 ? chunk.length : quote;
    const escape = chunk.indexOf(BACKSLASH, from);
    if (escape >= 0 && escape < to) {
      this.phase = 'whole';
      return;
    }
    this.sink.push(chunk, from, to);
    if (!this.sink.ok) this.phase = 'whole';
    else if (quote >= 0) {
      this.phase = 'tail';
      this.after.push(chunk.subarray(quote));
    }
  }

  finish(holder: (json: Record<string, unknown>) => unknown): JsonImageBody {
    if (this.phase === 'tail' && this.before !== undefined) {
      const lifted = this.lifted(this.before, holder);
      if (lifted !== undefined) return lifted;
    }
    return parseWhole(Buffer.concat(this.chunks), this.key, holder);
  }

  /** The answer with the value read as '', when it proves to be the one at `holder(json)[key]`; undefined otherwise. */
  private lifted(before: Buffer, holder: (json: Record<string, unknown>) => unknown): JsonImageBody | undefined {
    const decoder = new TextDecoder();
    // Split at ASCII quotes, so no UTF-8 sequence is cut; the decoder drops a byte order mark as Response.text() does.
    const rest = decoder.decode(before, { stream: true }) + decoder.decode(Buffer.concat(this.after));
    const named = `"${this.key}"`;
    if (rest.includes('\\u') || rest.indexOf(named) !== rest.lastIndexOf(named)) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(rest);
    } catch {
      return undefined;
    }
    const place = isRecord(json) ? holder(json) : undefined;
    if (!isRecord(json) || !isRecord(place) || place[this.key] !== '') return undefined;
    const bytes = this.sink.end();
    if (!this.sink.ok) return undefined;
    return bytes === undefined ? { json, isJson: true } : { json, isJson: true, image: { bytes, contentType: sniffImageType(bytes) } };
  }
}

/**
 * Where the value of the first `"key"` starts (just past its opening quote): 'more' when the head ends too soon to
 * tell, 'none' when that first `"key"` is not a key with a string value (which the general path then reads).
 */
function valueStart(head: Buffer, key: string): number | 'more' | 'none' {
  const at = head.indexOf(`"${key}"`);
  if (at < 0) return 'more';
  // A quote after an odd run of backslashes is escaped: this `"key"` is inside another string.
  let slashes = 0;
  while (head[at - 1 - slashes] === BACKSLASH) slashes += 1;
  if (slashes % 2 === 1) return 'none';
  let i = at + key.length + 2;
  while (isJsonSpace(head[i])) i += 1;
  if (i >= head.length) return 'more';
  if (head[i] !== COLON) return 'none';
  i += 1;
  while (isJsonSpace(head[i])) i += 1;
  if (i >= head.length) return 'more';
  return head[i] === QUOTE ? i + 1 : 'none';
}

/** The general path: the whole answer decoded as text (as Response.text()) and parsed, the image decoded from its string. */
function parseWhole(bytes: Buffer, key: string, holder: (json: Record<string, unknown>) => unknown): JsonImageBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { json: {}, isJson: false };
  }
  // Valid JSON that is not an object (`null`, a string) reads as an empty record, as readBody reads it.
  if (!isRecord(parsed)) return { json: {}, isJson: true };
  const place = holder(parsed);
  const value = isRecord(place) ? place[key] : undefined;
  if (!isRecord(place) || typeof value !== 'string') return { json: parsed, isJson: true };
  place[key] = '';
  return value === '' ? { json: parsed, isJson: true } : { json: parsed, isJson: true, image: base64Image(value) };
}
