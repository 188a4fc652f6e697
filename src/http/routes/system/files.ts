import { notFound } from '../../../domain/errors.js';
import type { RegisterRoutes } from '../types.js';

export const FILES_PATH = '/files';

/** Public URLs of the local blob store: objects are immutable once written, so caches may keep them. */
export const registerFiles: RegisterRoutes = (app, deps) => {
  app.get(`${FILES_PATH}/*`, async (c) => {
    const key = c.req.path.slice(FILES_PATH.length + 1);
    const blob = await deps.blobs.get(key);
    if (blob === undefined) throw notFound('File', 'key', key);
    return c.body(new Uint8Array(blob.bytes), 200, {
      'Content-Type': blob.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
};
