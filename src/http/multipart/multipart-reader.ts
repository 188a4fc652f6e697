import { ApiError, invalidBody } from '../../domain/errors.js';

/** One part's headers, as RFC 7578 gives them: a form field, or a file when it has a filename. */
export interface PartHead {
  name: string;
  /** Present (possibly empty) for a file part. */
  filename?: string;
  contentType: string;
}

export interface MultipartLimits {
  /** The whole body at most; past it, a 413 (the caller says which limit in its own words). */
  maxBytes: number;
  /** Parts at most: a form of thousands of empty parts is hostile, not data. */
  maxParts: number;
  onTooLarge: () => ApiError;
}

/** A part's headers are a few lines; 16 KiB is far more than any browser or client library sends. */
const MAX_HEADER_BYTES = 16 * 1024;
const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const encoder = new TextEncoder();
const headerText = new TextDecoder('utf-8', { fatal: true });

const malformed = (why: string): ApiError =>
  invalidBody(
    `the multipart body could not be read (${why}): send a well-formed multipart/form-data body whose parts match its boundary (as curl -F or a FormData sends it)`,
  );

/**
 * A streaming reader of `multipart/form-data` (RFC 7578 on RFC 2046's syntax): parts come one after another, each
 * body as chunks while they arrive, so a 50 MB file is never held whole; only a delimiter's length of bytes is kept
 * back between chunks. Runtime-neutral (web streams and Uint8Array), so Node and Workers parse alike.
 *
 * Read with `next()` for the next part's headers, then `body()` for its bytes (a body left unread is skipped).
 */
export class MultipartReader {
  private buffer: Uint8Array;
  private done = false;
  private received = 0;
  private parts = 0;
  /** Set between a part's headers and the delimiter that ends it. */
  private inBody = false;
  private finished = false;
  private readonly delimiter: Uint8Array;

  constructor(
    private readonly source: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
    private readonly limits: MultipartLimits,
  ) {
    this.delimiter = encoder.encode(`\r\n--${boundary}`);
    // The first delimiter may open the body without the CRLF the others have: a CRLF of our own makes them alike.
    this.buffer = Uint8Array.of(CR, LF);
  }

  /** The bytes read from the body so far (the request's size, for limits and logs). */
  get bytesRead(): number {
    return this.received;
  }

  /** The next part's headers, or undefined after the closing delimiter. */
  async next(): Promise<PartHead | undefined> {
    if (this.finished) return undefined;
    if (this.inBody) for await (const chunk of this.body()) void chunk;
    if (this.parts === 0) await this.skipToDelimiter();
    // After a delimiter: `--` closes the body; otherwise optional padding and a CRLF open a part.
    await this.ensure(2);
    if (this.buffer[0] === DASH && this.buffer[1] === DASH) {
      this.finished = true;
      await this.drain();
      return undefined;
    }
    let at = 0;
    for (;;) {
      await this.ensure(at + 2);
      const byte = this.buffer[at];
      if (byte === 0x20 || byte === 0x09) at += 1;
      else break;
    }
    if (this.buffer[at] !== CR || this.buffer[at + 1] !== LF) throw malformed('a delimiter is not followed by a line break');
    this.buffer = this.buffer.subarray(at + 2);
    this.parts += 1;
    if (this.parts > this.limits.maxParts) throw malformed(`more than ${this.limits.maxParts} parts`);
    const head = parseHead(await this.readHeaders());
    this.inBody = true;
    return head;
  }

  /** The current part's bytes as they arrive, up to the delimiter that ends it. Each chunk is valid until the next is asked for. */
  async *body(): AsyncGenerator<Uint8Array> {
    while (this.inBody) {
      const at = indexOf(this.buffer, this.delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        this.inBody = false;
        return;
      }
      // Everything but a delimiter's length of tail is surely body: hand it on, keep the tail to search again.
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) {
        const chunk = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        yield chunk;
      }
      if (!(await this.fill())) throw malformed('it ends inside a part, before the closing delimiter');
    }
  }

  private async skipToDelimiter(): Promise<void> {
    for (;;) {
      const at = indexOf(this.buffer, this.delimiter);
      if (at >= 0) {
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        return;
      }
      this.buffer = this.buffer.subarray(Math.max(0, this.buffer.length - (this.delimiter.length - 1)));
      if (!(await this.fill())) throw malformed('no part starts with the boundary the Content-Type names');
    }
  }

  private async readHeaders(): Promise<string> {
    const end = encoder.encode('\r\n\r\n');
    for (;;) {
      // A part with no headers at all starts straight with the blank line.
      if (this.buffer[0] === CR && this.buffer[1] === LF) {
        this.buffer = this.buffer.subarray(2);
        return '';
      }
      const at = indexOf(this.buffer, end);
      if (at >= 0) {
        const bytes = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + end.length);
        try {
          return headerText.decode(bytes);
        } catch {
          throw malformed('a part header is not UTF-8');
        }
      }
      if (this.buffer.length > MAX_HEADER_BYTES) throw malformed(`a part's headers are longer than ${MAX_HEADER_BYTES} bytes`);
      if (!(await this.fill())) throw malformed("it ends inside a part's headers");
    }
  }

  /** What follows the closing delimiter (an epilogue, usually a CRLF) is read and dropped, within the limit. */
  private async drain(): Promise<void> {
    this.buffer = new Uint8Array(0);
    while (await this.fill()) this.buffer = new Uint8Array(0);
  }

  private async ensure(length: number): Promise<void> {
    while (this.buffer.length < length) {
      if (!(await this.fill())) throw malformed('it ends before the closing delimiter');
    }
  }

  /** Reads one more chunk onto the buffer; false at the end of the body. */
  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const { done, value } = await this.source.read();
    if (done) {
      this.done = true;
      return false;
    }
    this.received += value.byteLength;
    if (this.received > this.limits.maxBytes) throw this.limits.onTooLarge();
    if (this.buffer.length === 0) {
      this.buffer = value;
    } else {
      // Only a short tail is ever left over (at most a delimiter or a header block), so this copy stays small.
      const joined = new Uint8Array(this.buffer.length + value.byteLength);
      joined.set(this.buffer);
      joined.set(value, this.buffer.length);
      this.buffer = joined;
    }
    return true;
  }
}

/** Where `needle` first occurs in `haystack`: the native search finds each candidate first byte. */
export function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(first ?? 0); at !== -1 && at <= last; at = haystack.indexOf(first ?? 0, at + 1)) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i += 1;
    if (i === needle.length) return at;
  }
  return -1;
}

/** Content-Disposition's name and filename (quoted, with backslash escapes, or a token; `filename*` as RFC 5987), and the Content-Type. */
function parseHead(text: string): PartHead {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed('a part header line has no name');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (disposition === undefined || !/^form-data\s*(;|$)/i.test(disposition)) throw malformed('a part has no Content-Disposition: form-data header');
  const parameters = dispositionParameters(disposition);
  const name = parameters.get('name');
  if (name === undefined) throw malformed('a part has no name');
  const filename = parameters.get('filename*') ?? parameters.get('filename');
  return {
    name,
    ...(filename === undefined ? {} : { filename }),
    contentType: contentType ?? (filename === undefined ? 'text/plain' : 'application/octet-stream'),
  };
}

const PARAMETER = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;

function dispositionParameters(disposition: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const [, rawName = '', quoted, token] of disposition.matchAll(PARAMETER)) {
    const name = rawName.toLowerCase();
    let value = quoted === undefined ? (token ?? '').trim() : quoted.replace(/\\(.)/g, '$1');
    if (name === 'filename*') {
      const encoded = /^utf-8'[^']*'(.*)$/i.exec(value);
      if (encoded === null) continue;
      try {
        value = decodeURIComponent(encoded[1] ?? '');
      } catch {
        continue;
      }
    }
    if (!parameters.has(name)) parameters.set(name, value);
  }
  return parameters;
}
