import fs from 'node:fs';
import path from 'node:path';
import { ApiError, notFound } from '../../domain/errors.js';
import type { Logger } from '../../ports/logger.js';
import { renderError } from '../../http/errors.js';
import type { Api } from '../../http/routes/types.js';
import { APP_PAGES } from '../../http/routes/system/app-pages.js';

/** Where `npm run build` puts the app: the same relative path from `src/` (tsx) and from `dist/` (built). */
export const DEFAULT_WEB_APP_DIR = path.resolve(import.meta.dirname, '../../../dist/web');

const CONTENT_TYPES = new Map<string, string>([
  ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.ico', 'image/x-icon'],
  ['.woff2', 'font/woff2'],
  ['.json', 'application/json; charset=utf-8'],
  ['.map', 'application/json; charset=utf-8'],
]);

/**
 * Scripts, styles and API calls come from this server only; images may come from the blob store's public
 * URL (S3, R2), which can be another host.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
}

export interface WebAppBundle {
  index: string;
  /** By path under `assets/`, e.g. `index-3f2a9c.js`. A Map, so `__proto__` is never an asset. */
  assets: Map<string, Asset>;
}

/** Reads the built app once, at start: a request never touches the disk. Undefined when it was not built. */
export function loadWebApp(dir: string): WebAppBundle | undefined {
  let index: string;
  try {
    index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
  const assets = new Map<string, Asset>();
  const assetDir = path.join(dir, 'assets');
  const files = fs.existsSync(assetDir) ? fs.readdirSync(assetDir, { recursive: true, encoding: 'utf8' }) : [];
  for (const file of files) {
    const full = path.join(assetDir, file);
    if (!fs.statSync(full).isFile()) continue;
    const type = CONTENT_TYPES.get(path.extname(file).toLowerCase()) ?? 'application/octet-stream';
    assets.set(file.split(path.sep).join('/'), { bytes: new Uint8Array(fs.readFileSync(full)), type });
  }
  return { index, assets };
}

const NOT_BUILT_MESSAGE =
  'this server was started without the built web app: run `npm run build` (npm install runs it), then restart. The API works meanwhile; its reference is at /docs';

/**
 * The browser app at `/` and at each of its pages (client-side routes), with its hashed assets under
 * `/assets/`. Only the app's own pages fall back to `index.html`, so an unknown path is still a 404.
 */
export function registerWebApp(app: Api, options: { dir: string; logger: Logger }): void {
  const bundle = loadWebApp(options.dir);
  if (bundle === undefined) {
    options.logger.warn({ dir: options.dir }, 'the web app is not built (no index.html); / answers how to build it');
    const notBuilt = new ApiError('NOT_FOUND', 'Web app not built', { message: NOT_BUILT_MESSAGE });
    for (const page of APP_PAGES) app.get(page, (c) => renderError(c, notBuilt));
    return;
  }

  // Revalidated on every load, so a new build's asset names are picked up at once.
  const pageHeaders = {
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  for (const page of APP_PAGES) app.get(page, (c) => c.html(bundle.index, 200, pageHeaders));

  app.get('/assets/*', (c) => {
    const name = c.req.path.slice('/assets/'.length);
    const asset = bundle.assets.get(name);
    if (asset === undefined) throw notFound('Asset', 'file', name);
    // Names carry a content hash: a changed file is a new name, so a cached one never goes stale.
    return c.body(asset.bytes, 200, {
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
