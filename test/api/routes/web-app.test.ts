import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/app.js';
import { createNodeApp } from '../../../src/runtimes/node/app.js';
import { APP_PAGES } from '../../../src/http/routes/system/app-pages.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = 'console.log("app")';

const made: string[] = [];

/** A stand-in for `vite build`'s output: what the server reads is index.html and assets/. */
function fakeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-web-'));
  made.push(dir);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'index-Ef56Gh78.css'), 'body{margin:0}');
  return dir;
}

let h: Harness;
let built: string;
beforeAll(async () => {
  h = await createHarness({ workers: false });
  built = fakeBuild();
});
afterAll(async () => {
  await h.close();
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const KEY_MODE: AppConfig = { authMode: 'api_key', allowedIps: [], clientIpHeader: 'CF-Connecting-IP' };
const appWith = (webAppDir: string, config: AppConfig = KEY_MODE) => createNodeApp({ deps: h.deps, config, serveFiles: true, webAppDir });

describe('the web app at /', () => {
  it('serves index.html at / and at every page of the app, revalidated on each load', async () => {
    const app = appWith(built);
    for (const page of APP_PAGES) {
      const res = await app.request(page.replace(':id', 'coll_123'));
      expect(res.status, page).toBe(200);
      expect(res.headers.get('Content-Type'), page).toMatch(/^text\/html/);
      expect(res.headers.get('Cache-Control'), page).toBe('no-cache');
      expect(res.headers.get('Content-Security-Policy'), page).toContain("script-src 'self'");
      expect(await res.text(), page).toBe(INDEX);
    }
  });

  it('serves hashed assets with a year-long immutable cache and their content type', async () => {
    const res = await appWith(built).request('/assets/index-Ab12Cd34.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toBe(SCRIPT);
    const css = await appWith(built).request('/assets/index-Ef56Gh78.css');
    expect(css.headers.get('Content-Type')).toBe('text/css; charset=utf-8');
  });

  it.each(['/assets/nope.js', '/assets/__proto__', '/assets/toString', '/assets/..%2Findex.html', '/assets/', '/assets/index-Ab12Cd34.js/x'])(
    'answers an unknown asset %s with a JSON 404',
    async (asset) => {
      const res = await appWith(built).request(asset);
      expect(res.status).toBe(404);
      expect((await json(res)).code).toBe('NOT_FOUND');
    },
  );

  it('reads the build once, at start: a file changed afterwards is not served', async () => {
    const dir = fakeBuild();
    const app = appWith(dir);
    fs.writeFileSync(path.join(dir, 'index.html'), '<p>changed</p>');
    fs.rmSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'));
    expect(await (await app.request('/')).text()).toBe(INDEX);
    expect((await app.request('/assets/index-Ab12Cd34.js')).status).toBe(200);
  });

  it('never shadows the API, the reference, the files, the document or health, and unknown paths stay 404', async () => {
    const app = appWith(built);
    const api = await app.request('/api/images');
    expect(api.status).toBe(401);
    expect((await json(api)).error).toBe('Invalid API key');
    expect(await (await app.request('/docs')).text()).toContain('swagger-ui');
    expect((await json(await app.request('/openapi.json'))).openapi).toBe('3.1.0');
    expect(await json(await app.request('/health'))).toEqual({ status: 'ok' });
    for (const path of ['/files/generated/none.png', '/nope', '/gallery/img_1/extra', '/index.html']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Content-Type'), path).toMatch(/^application\/json/);
    }
  });

  it('says how to build the app when it was not built, instead of failing', async () => {
    const app = appWith(path.join(os.tmpdir(), 'imagegate-no-such-build'));
    for (const page of ['/', '/gallery']) {
      const res = await app.request(page);
      expect(res.status).toBe(404);
      const body = await json<{ error: string; details: { message: string } }>(res);
      expect(body.error).toBe('Web app not built');
      expect(body.details.message).toContain('npm run build');
    }
    expect((await app.request('/health')).status).toBe(200);
  });
});

describe('GET /app/config.json', () => {
  it('tells the access mode without a key in key mode', async () => {
    const res = await appWith(built).request('/app/config.json');
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ auth_mode: 'api_key', version: expect.any(String), upload_types: ['image/png', 'image/jpeg', 'image/webp'] });
  });

  it('tells the IP allow-list mode to an allowed client, and is behind the allow-list like everything else', async () => {
    const app = appWith(built, { authMode: 'ip_allowlist', allowedIps: ['203.0.113.7'], clientIpHeader: 'CF-Connecting-IP' });
    expect(await json(await app.request('/app/config.json', { headers: { 'CF-Connecting-IP': '203.0.113.7' } }))).toMatchObject({ auth_mode: 'ip_allowlist' });
    const outsider = await app.request('/app/config.json', { headers: { 'CF-Connecting-IP': '198.51.100.1' } });
    expect([outsider.status, await outsider.text()]).toEqual([403, 'Forbidden']);
    expect((await app.request('/', { headers: { 'CF-Connecting-IP': '198.51.100.1' } })).status).toBe(403);
  });

  it('is documented in the OpenAPI document as needing no key', async () => {
    const doc = await json<{ paths: Record<string, { get?: { security?: unknown[] } }> }>(await appWith(built).request('/openapi.json'));
    expect(doc.paths['/app/config.json']?.get?.security).toEqual([]);
  });
});
