import { notFound } from '../../../domain/errors.js';
import type { RegisterRoutes } from '../types.js';

export const FILES_PATH = '/files';

/**
 * Public URLs of the local blob store: objects are immutable once written, so caches may keep them.
 * `?download=<name>` (or `?download=1`) answers with `Content-Disposition: attachment`, so a link saves the file
 * instead of opening it, named `<name>` with the file's own extension (or the object's name).
 */
export const registerFiles: RegisterRoutes = (app, deps) => {
  app.get(`${FILES_PATH}/*`, async (c) => {
    const key = c.req.path.slice(FILES_PATH.length + 1);
    const blob = await deps.blobs.get(key);
    if (blob === undefined) throw notFound('File', 'key', key);
    const download = c.req.query('download');
    return c.body(new Uint8Array(blob.bytes), 200, {
      'Content-Type': blob.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      ...(download === undefined ? {} : { 'Content-Disposition': attachment(key, download) }),
    });
  });
};

/** RFC 6266: an ASCII fallback name, and the UTF-8 name in `filename*`. */
function attachment(key: string, wanted: string): string {
  const objectName = key.slice(key.lastIndexOf('/') + 1);
  const extension = objectName.slice(objectName.lastIndexOf('.'));
  const stem = wanted === '1' || wanted.trim() === '' ? objectName.slice(0, -extension.length) : wanted.trim().slice(0, 100);
  const name = `${stem}${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
