import type { UploadRole } from '../../ports/database.js';
import type { StagedFile } from '../../ports/upload-staging.js';
import { cutText } from '../cut-text.js';

/** A file to store as an upload: as staged while the request came in, or bytes in memory (MCP's base64 data). */
export type UploadFile = Pick<StagedFile, 'size' | 'head' | 'path' | 'bytes'> & { readonly sha256?: string };

/**
 * What finds the same file sent again by the same user: SHA-256 (hex) of its bytes as sent, and how they were stored.
 * A staged file was hashed while it streamed in (the staging's own hash, which Idempotency-Key compares too); bytes
 * in memory are hashed here. Under UPLOAD_METADATA=keep the stored file is the one sent, otherwise it lost its
 * metadata: the two are different files (`kept:` marks the first), so a change of the setting never answers a file
 * stored the other way (with a GPS position the operator now strips, say).
 */
export async function contentHash(file: UploadFile, metadata: 'strip' | 'keep'): Promise<string> {
  const hex = file.sha256 !== undefined && file.sha256 !== '' ? file.sha256 : await sha256Hex(await file.bytes());
  return metadata === 'keep' ? `kept:${hex}` : hex;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Copied into a plain ArrayBuffer, which is what digest takes (the bytes may be a view of a shared buffer).
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
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
