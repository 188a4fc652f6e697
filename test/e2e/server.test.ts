import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const KEY = 'igk_e2e_secret_key';
const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

const authed = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

describe('imagegate serve (real process, real sockets)', () => {
  it('generates an image whose r2_url serves the PNG, and keeps it across a restart', async () => {
    const dataDir = tempDataDir();
    const first = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: KEY });
    const res = await fetch(`${first.url}/api/generate`, {
      method: 'POST',
      headers: authed,
      body: JSON.stringify({ prompt: 'a harbour at dawn', model: 'local/procedural', width: 300, height: 200 }),
    });
    expect(res.status).toBe(201);
    const image = (await res.json()) as { id: string; r2_url: string };
    // PUBLIC_BASE_URL defaults to the address the server listens on: the app and its images share an origin.
    expect(image.r2_url.startsWith(`${first.url}/files/generated/`)).toBe(true);

    const png = await fetch(image.r2_url);
    expect(png.status).toBe(200);
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 300, 200]);

    expect(await first.stop()).toBe(0);
    const second = await start({ DATA_DIR: dataDir, ADMIN_API_KEY: KEY });
    const again = await fetch(`${second.url}/api/images/${image.id}`, { headers: authed });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: string }).id).toBe(image.id);
  });

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const server = await start({ DATA_DIR: tempDataDir(), ADMIN_API_KEY: KEY });
    const pending = fetch(`${server.url}/api/generate`, {
      method: 'POST',
      headers: authed,
      body: JSON.stringify({ prompt: 'a very large mountain panorama', model: 'local/procedural', width: 2048, height: 2048 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    const res = await pending;
    expect(res.status).toBe(201);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('imagegate stopped');
  });

  it('logs one structured line per request with method, path, status, duration and request id', async () => {
    const server = await start({ DATA_DIR: tempDataDir(), ADMIN_API_KEY: KEY });
    await fetch(`${server.url}/api/images?limit=1`, { headers: { ...authed, 'X-Request-Id': 'e2e-trace-1' } });
    await server.stop();
    const line = server
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.requestId === 'e2e-trace-1');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/api/images', status: 200, ms: expect.any(Number) });
  });

  it('creates and prints an admin key once on the first start without ADMIN_API_KEY, and keeps it', async () => {
    const dataDir = tempDataDir();
    const first = await start({ DATA_DIR: dataDir });
    const key = /"apiKey":"(igk_live_[^"]+)"/.exec(first.output())?.[1] ?? '';
    expect(key).not.toBe('');
    expect(first.output()).toContain('npx imagegate keys create');
    expect((await fetch(`${first.url}/api/images`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await fetch(`${first.url}/api/images`)).status).toBe(401);
    await first.stop();

    const second = await start({ DATA_DIR: dataDir });
    expect(second.output()).not.toContain('apiKey');
    expect((await fetch(`${second.url}/api/images`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('refuses to start with a clear message when ALLOWED_IPS is malformed', async () => {
    const server = await start({ DATA_DIR: tempDataDir(), AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: '10.0.0.1, nope' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('ALLOWED_IPS: not IP addresses: "nope"');
  });

  it('serves the allow-list mode over a real socket', async () => {
    const server = await start({ DATA_DIR: tempDataDir(), AUTH_MODE: 'ip_allowlist', ALLOWED_IPS: '127.0.0.1' });
    const denied = await fetch(`${server.url}/health`);
    expect([denied.status, await denied.text()]).toEqual([403, 'Forbidden']);
    const allowed = await fetch(`${server.url}/health`, { headers: { 'CF-Connecting-IP': '127.0.0.1' } });
    expect(allowed.status).toBe(200);
  });
});
