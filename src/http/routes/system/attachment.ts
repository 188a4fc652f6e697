import { cutText } from '../../../domain/cut-text.js';

/** Longest name asked for with `?download=`, in UTF-16 units before its extension: any file system takes it. */
export const MAX_DOWNLOAD_STEM = 100;

/**
 * What a name shown in a save dialog must not carry: control characters (C0, DEL, C1) a header or file system
 * refuses, lone surrogates (no UTF-8 form: `encodeURIComponent` throws on them), and the bidirectional controls
 * that would make `photo\u202Egnp.exe` display as `photoexe.png`.
 */
// eslint-disable-next-line no-control-regex
const UNSHOWABLE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `Content-Disposition: attachment` for the object at `key`, named `wanted` (cleaned, cut short) with the
 * object's own extension, or the object's own name for `1` or a name with nothing showable left. RFC 6266: an
 * ASCII fallback in `filename`, the UTF-8 name in `filename*`; the value is always printable ASCII.
 */
export function attachmentHeader(key: string, wanted: string): string {
  const objectName = key.slice(key.lastIndexOf('/') + 1);
  const dot = objectName.lastIndexOf('.');
  const extension = dot > 0 ? objectName.slice(dot) : '';
  const ownStem = objectName.slice(0, objectName.length - extension.length);
  // Cleaned before it is cut, so what is cut away is never counted; cut again after trimming the cut's edge.
  const cleaned = wanted === '1' ? '' : cutText(wanted.replace(UNSHOWABLE, '').trim(), MAX_DOWNLOAD_STEM).trim();
  const name = `${cleaned === '' ? ownStem : cleaned}${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** RFC 5987's value-chars: encodeURIComponent leaves `'()*` as they are, which `filename*` may not carry. */
const encodeRfc5987 = (text: string): string => encodeURIComponent(text).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
