import type { UploadRole } from '../../ports/database.js';
import type { StagedFile } from '../../ports/upload-staging.js';
import { cutText } from '../cut-text.js';

/** A file to store as an upload: as staged while the request came in, or bytes in memory (MCP's base64 data). */
export type UploadFile = Pick<StagedFile, 'size' | 'head' | 'path' | 'bytes'> & { readonly sha256?: string };

/**
 * SHA-256 (hex) of the file's bytes as sent: what finds the same file sent again by the same user. A staged file
 * was hashed while it streamed in (the staging's own hash, which Idempotency-Key compares too); bytes in memory are
 * hashed here.
 */
export async function contentHash(file: UploadFile): Promise<string> {
  if (file.sha256 !== undefined && file.sha256 !== '') return file.sha256;
  // Copied into a plain ArrayBuffer, which is what digest takes (the bytes may be a view of a shared buffer).
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(await file.bytes())));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Names browsers and SDKs give a file that had none: FormData's default for a Blob, and nothing at all. */
const NO_NAME = new Set(['', 'blob']);

/** How a nameless file's made-up name starts, by what it is stored as. */
const NAME_PREFIX: Readonly<Record<UploadRole, string>> = { file: 'upload', input: 'input', mask: 'mask' };

/**
 * The name an upload keeps as its prompt: the file's name without any folder a browser may send, control characters,
 * NUL (PostgreSQL text cannot hold it) or a cut emoji. A file sent without a name (the AI SDK and a bare FormData
 * Blob send `blob`) is named by what it is and when it came, e.g. `upload-2026-11-27T09-00-00.png`, so the gallery
 * does not fill with files all called `blob`.
 */
export function uploadName(name: string | undefined, role: UploadRole, extension: 'png' | 'jpg' | 'webp', at: Date): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = cutText(base.replace(/[\u0000-\u001f\u007f]/g, ''), 200);
  if (!NO_NAME.has(cleaned.trim().toLowerCase())) return cleaned;
  // Seconds are enough to tell files apart by eye; colons are left out, as file systems refuse them.
  const time = at.toISOString().slice(0, 19).replaceAll(':', '-');
  return `${NAME_PREFIX[role]}-${time}.${extension}`;
}
