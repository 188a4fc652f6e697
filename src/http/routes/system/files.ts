import { notFound } from '../../../domain/errors.js';
import { setResponseHeader } from '../../response-headers.js';
import { contentTypeOfKey } from '../../../ports/blob-store.js';
import type { RegisterRoutes } from '../types.js';
import { attachmentHeader } from './attachment.js';

export const FILES_PATH = '/files';

/**
 * `/files` shares the web app's origin, and a valid image can still carry markup (a PNG text chunk with
 * `<script>`). Beside `nosniff`, the page a browser would make of any answer here has no right to run or load
 * anything (`default-src 'none'`) and is a sandboxed, unique origin (`sandbox`): it can reach neither the app's
 * storage nor its API. Images are public and embedded on other sites (READMEs, chats), so other origins may
 * load them (`Cross-Origin-Resource-Policy: cross-origin`); `same-origin` would break those embeds under COEP.
 */
const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/**
 * Public URLs of the local blob store (and of any store, when the server serves them): objects are immutable once
 * written, so caches may keep them. `?download=<name>` (or `?download=1`) answers with `Content-Disposition:
 * attachment`, so a link saves the file instead of opening it, named `<name>` with the file's own extension (or
 * the object's name).
 */
export const registerFiles: RegisterRoutes = (app, deps) => {
  app.get(`${FILES_PATH}/*`, async (c) => {
    // Set first, so a 404 here (which names the key asked for) is held to them too.
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) setResponseHeader(c, name, value);
    const key = c.req.path.slice(FILES_PATH.length + 1);
    const blob = await deps.blobs.get(key);
    if (blob === undefined) throw notFound('File', 'key', key);
    const download = c.req.query('download');
    return c.body(new Uint8Array(blob.bytes), 200, {
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Type': contentTypeOfKey(key),
      ...(download === undefined ? {} : { 'Content-Disposition': attachmentHeader(key, download) }),
    });
  });
};
