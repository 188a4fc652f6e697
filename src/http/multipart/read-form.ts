import { ApiError, invalidBody, invalidParameter } from '../../domain/errors.js';
import { MAX_UPLOAD_BYTES } from '../../domain/inputs/input-limits.js';
import { textProblem } from '../../domain/json-shape.js';
import type { StagedFile, StagedUpload, StagingWriter, UploadStaging } from '../../ports/upload-staging.js';
import { MultipartReader } from './multipart-reader.js';

/** One entry of a form as received: a text field, or a file staged while it arrived. */
export type FormEntry = { name: string; value: string } | { name: string; upload: StagedUpload; filename: string; contentType: string };

export interface ReceivedForm {
  /** The form the routes validate: files are Files backed by the staging (Node: a file on disk). */
  form: FormData;
  entries: readonly FormEntry[];
  /** Removes every staged file; the request is over. */
  discard(): Promise<void>;
}

export interface ReadFormOptions {
  boundary: string;
  staging: UploadStaging;
  /** The whole body at most (MAX_MULTIPART_BYTES). */
  maxBytes: number;
  tooLarge: () => ApiError;
}

/** Text fields together at most: they are prompts and options, as a JSON body's are (MAX_BODY_BYTES). */
const MAX_TEXT_BYTES = 1024 * 1024;
/** A form has a few fields and at most MAX_INPUT_IMAGES files; a thousand parts is no client's form. */
const MAX_PARTS = 1000;

const staged = new WeakMap<File, StagedFile>();

/** What the staging kept of a form file: its size, head, hash and (Node) path; undefined for a File made elsewhere. */
export const stagedFileOf = (file: File): StagedFile | undefined => staged.get(file);

/**
 * Reads a multipart body as it streams in: each file part goes to the staging as its chunks arrive (never whole in
 * memory), each text field is decoded as JSON text is (UTF-8 strictly, no NUL, no lone surrogate: refused with a
 * 400 naming the field, never altered). A file over MAX_UPLOAD_BYTES is a 413 naming the field as soon as it grows
 * past it, and nothing it staged is kept.
 */
export async function readMultipartForm(body: ReadableStream<Uint8Array> | null, options: ReadFormOptions): Promise<ReceivedForm> {
  const entries: FormEntry[] = [];
  const discard = async () => {
    for (const entry of entries) if ('upload' in entry) await entry.upload.discard().catch(() => undefined);
  };
  if (body === null) throw invalidBody('the multipart body is empty; send the form as curl -F or a FormData does');
  const source = body.getReader();
  const reader = new MultipartReader(source, options.boundary, { maxBytes: options.maxBytes, maxParts: MAX_PARTS, onTooLarge: options.tooLarge });
  let textBytes = 0;
  try {
    for (let part = await reader.next(); part !== undefined; part = await reader.next()) {
      if (part.filename === undefined) {
        const bytes = await readText(reader, MAX_TEXT_BYTES - textBytes, part.name);
        textBytes += bytes.byteLength;
        entries.push({ name: part.name, value: decodeField(part.name, bytes) });
        continue;
      }
      const writer = await options.staging.create({ filename: part.filename, contentType: part.contentType });
      const upload = await stageFile(reader, writer, part.name);
      entries.push({ name: part.name, upload, filename: part.filename, contentType: part.contentType });
    }
  } catch (error) {
    await discard();
    await source.cancel().catch(() => undefined);
    throw error;
  }
  const form = new FormData();
  for (const entry of entries) {
    if ('value' in entry) {
      form.append(entry.name, entry.value);
    } else {
      staged.set(entry.upload.file, entry.upload.staged);
      form.append(entry.name, entry.upload.file);
    }
  }
  return { form, entries, discard };
}

async function stageFile(reader: MultipartReader, writer: StagingWriter, field: string): Promise<StagedUpload> {
  let size = 0;
  try {
    for await (const chunk of reader.body()) {
      size += chunk.byteLength;
      if (size > MAX_UPLOAD_BYTES) {
        throw new ApiError('PAYLOAD_TOO_LARGE', 'Image too large', {
          field,
          max_bytes: MAX_UPLOAD_BYTES,
          message: `${field} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB: send a smaller image`,
        });
      }
      await writer.write(chunk);
    }
  } catch (error) {
    await writer.abort().catch(() => undefined);
    throw error;
  }
  return writer.finish();
}

async function readText(reader: MultipartReader, room: number, field: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of reader.body()) {
    size += chunk.byteLength;
    if (size > room) {
      throw new ApiError('PAYLOAD_TOO_LARGE', 'Request body too large', {
        field,
        max_bytes: MAX_TEXT_BYTES,
        message: `the form's text fields are limited to ${MAX_TEXT_BYTES} bytes in all (${field} goes past it)`,
      });
    }
    chunks.push(chunk.slice());
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Fatal: invalid UTF-8 (which is where a lone surrogate would have to hide, e.g. ED A0 80) is refused, not replaced with U+FFFD. */
const fieldText = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeField(field: string, bytes: Uint8Array): string {
  let text: string;
  try {
    text = fieldText.decode(bytes);
  } catch {
    throw invalidParameter(field, `${field} is not valid UTF-8 text; send form fields as UTF-8 (as browsers and FormData do)`);
  }
  const problem = textProblem(text);
  if (problem !== undefined) throw invalidParameter(field, `${field} ${problem}`);
  return text;
}
