import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { notFound } from '../../domain/errors.js';
import type { Api } from '../../http/routes/types.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** A Map, not an object literal: `toString` or `__proto__` must not look like an asset name. */
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>imagegate API reference</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

/** The reference page is served with its own scripts and styles: a page that loads from a CDN is blank offline. */
export function registerDocs(app: Api): void {
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/init.js', (c) => c.body(INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS.get(file);
    if (type === undefined) throw notFound('Asset', 'file', file);
    const bytes = await fs.readFile(path.join(SWAGGER_DIR, file));
    return c.body(bytes, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
  });
}
