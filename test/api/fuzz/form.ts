/**
 * A multipart/form-data body in the fuzzer's model: named parts holding text, fixtures or files (sample files by
 * name), sent as FormData encodes it or as hand-built text (the only way to send a broken one).
 */
import { abbreviate, Fixture, type Resolve } from './json-text.js';
import { SAMPLES, zeros, type Bytes, type SampleName, type Samples } from './samples.js';

/** The boundary of every hand-built body; the Content-Types the fuzzer sends name it (or, on purpose, do not). */
export const BOUNDARY = 'imagegate-fuzz-7d1b';

export type FileContent = { sample: SampleName } | { random: Bytes } | { zeros: number };

/** A file part. Without a filename the part is a text field whatever its bytes (RFC 7578 §4.2, WHATWG FormData). */
export class FilePart {
  constructor(
    readonly content: FileContent,
    readonly filename: string | null,
    readonly type: string | null,
  ) {}

  /** Whether the bytes are a whole PNG, JPEG or WebP of a size the service takes. */
  get image(): boolean {
    return 'sample' in this.content && SAMPLES[this.content.sample].image;
  }

  get size(): number {
    if ('zeros' in this.content) return this.content.zeros;
    return 'random' in this.content ? this.content.random.length : -1;
  }

  bytes(samples: Samples): Bytes {
    if ('sample' in this.content) return samples[this.content.sample];
    return 'random' in this.content ? this.content.random : zeros(this.content.zeros);
  }

  describe(): string {
    const what =
      'sample' in this.content
        ? SAMPLES[this.content.sample].label
        : 'random' in this.content
          ? `${this.content.random.length} random bytes`
          : `${this.content.zeros.toLocaleString('en-US')} zero bytes`;
    const name = this.filename === null ? 'no filename' : JSON.stringify(abbreviate(this.filename, 60));
    return `[${what}, ${name}${this.type === null ? '' : `, ${this.type}`}]`;
  }
}

export type FormValue = string | Fixture | FilePart;

/** Ways a hand-built body breaks RFC 2046 / RFC 7578 so that no parser may read it as a form. */
export const MALFORMATIONS = [
  'no closing delimiter',
  'another boundary in the body than in the header',
  'LF line breaks instead of CRLF',
  'a part without Content-Disposition',
  'a part without a name',
  'no blank line after the part headers',
  'Content-Disposition attachment instead of form-data',
  'cut off in the middle',
] as const;
export type Malformation = (typeof MALFORMATIONS)[number];

export class Form {
  constructor(
    readonly parts: readonly (readonly [string, FormValue])[],
    /** `formdata`: encoded by the platform's FormData (and its own Content-Type); `hand`: by `encodeForm`. */
    readonly encoder: 'formdata' | 'hand' = 'hand',
    readonly malformed?: Malformation,
  ) {}

  names(): string[] {
    return this.parts.map(([name]) => name);
  }
}

const text = (value: string): Bytes => new Uint8Array(Buffer.from(value, 'utf8'));

/** Names and filenames as WHATWG's FormData encoder escapes them. */
const quoted = (text: string) => `"${text.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A')}"`;

/** The body's bytes, hand-built (with the form's malformation, if any). */
export function encodeForm(form: Form, samples: Samples, resolve: Resolve): Bytes {
  const bad = form.malformed;
  const eol = bad === 'LF line breaks instead of CRLF' ? '\n' : '\r\n';
  const boundary = bad === 'another boundary in the body than in the header' ? `${BOUNDARY}-other` : BOUNDARY;
  const chunks: Bytes[] = [];
  form.parts.forEach(([name, value], i) => {
    const first = i === 0;
    const file = value instanceof FilePart ? value : undefined;
    const disposition = first && bad === 'Content-Disposition attachment instead of form-data' ? 'attachment' : 'form-data';
    const named = first && bad === 'a part without a name' ? '' : `; name=${quoted(name)}`;
    const headers = [`Content-Disposition: ${disposition}${named}${file?.filename == null ? '' : `; filename=${quoted(file.filename)}`}`];
    if (file?.type != null) headers.push(`Content-Type: ${file.type}`);
    if (first && bad === 'a part without Content-Disposition') headers[0] = 'X-Fuzz: no disposition';
    const blank = first && bad === 'no blank line after the part headers' ? '' : eol;
    chunks.push(text(`--${boundary}${eol}${headers.join(eol)}${eol}${blank}`));
    chunks.push(file === undefined ? text(value instanceof Fixture ? resolve(value.name) : (value as string)) : file.bytes(samples));
    chunks.push(text(eol));
  });
  if (bad !== 'no closing delimiter' && bad !== 'cut off in the middle') chunks.push(text(`--${boundary}--${eol}`));
  const body = new Uint8Array(Buffer.concat(chunks));
  return bad === 'cut off in the middle' ? body.slice(0, Math.max(1, body.length >> 1)) : body;
}

/** The form as the platform's FormData (the request then carries FormData's own boundary). */
export function formDataOf(form: Form, samples: Samples, resolve: Resolve): FormData {
  const data = new FormData();
  for (const [name, value] of form.parts) {
    if (value instanceof Fixture) data.append(name, resolve(value.name));
    else if (typeof value === 'string') data.append(name, value);
    else if (value.filename === null) data.append(name, new TextDecoder().decode(value.bytes(samples)));
    else data.append(name, new Blob([value.bytes(samples)], value.type === null ? {} : { type: value.type }), value.filename);
  }
  return data;
}

/** Bytes the form's files hold (the rest is small). */
export const formFileBytes = (form: Form): number => form.parts.reduce((sum, [, value]) => sum + (value instanceof FilePart ? Math.max(0, value.size) : 0), 0);

/** The form in one readable line; `formData`: whether it went as FormData encodes it (else hand-built). */
export function describeForm(form: Form, resolve: Resolve, formData: boolean): string {
  const parts = form.parts.map(([name, value]) => {
    const shown = value instanceof FilePart ? value.describe() : JSON.stringify(abbreviate(value instanceof Fixture ? resolve(value.name) : value, 80));
    return `${JSON.stringify(name)}=${shown}`;
  });
  const how = formData ? 'FormData' : 'hand-built';
  return `multipart form (${how}${form.malformed === undefined ? '' : `, broken: ${form.malformed}`}): ${parts.length === 0 ? '(no parts)' : parts.join('; ')}`;
}
