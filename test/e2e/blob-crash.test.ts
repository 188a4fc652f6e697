import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const KEY = 'igk_e2e_blob_crash';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** Every file under `root`, as slash-separated paths relative to it (dot-folders included). */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

function plant(root: string, relative: string, bytes: Buffer | string): void {
  const file = path.join(root, ...relative.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
}

interface LogLine {
  msg?: string;
  orphans?: string[];
  incomplete?: string[];
}

const logLines = (server: ServerProcess): LogLine[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

async function expectNotFound(url: string): Promise<void> {
  const res = await fetch(url);
  expect(res.status, url).toBe(404);
  expect(await res.json()).toMatchObject({ error: 'File not found', code: 'NOT_FOUND' });
}

describe('the blob store after kill -9 during a burst of generates', () => {
  it('keeps only objects that have an image record, and never serves a temporary file', async () => {
    const dataDir = tempDataDir();
    const blobs = path.join(dataDir, 'blobs');
    const env = { DATA_DIR: dataDir, ADMIN_API_KEY: KEY };
    const first = await start(env);

    const burst = Array.from({ length: 60 }, (_, i) =>
      fetch(`${first.url}/api/generate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ prompt: `a harbour town at dusk, view ${i}`, model: 'local/procedural', width: 512, height: 512 }),
      }).catch(() => undefined),
    );
    // Killed while the burst is writing (the first objects or temporary files have appeared), not on a
    // timer, so it lands mid-burst on a fast or a loaded machine alike.
    const deadline = Date.now() + 30_000;
    while (filesUnder(blobs).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(burst);

    const atKill = filesUnder(blobs);
    expect(atKill.length).toBeGreaterThan(0);
    // What older versions and a crash leave behind, planted so the clean-up always has work to show.
    const png = fs.readFileSync(path.join(blobs, atKill.find((file) => file.endsWith('.png')) ?? atKill[0] ?? ''));
    plant(blobs, 'generated/img_planted_orphan.png', png);
    plant(blobs, 'generated/img_planted.png.a1b2c3d4e5f6.tmp', png.subarray(0, 100));
    plant(blobs, '.incoming/planted.tmp', png.subarray(0, 100));
    const leftBehind = filesUnder(blobs);

    const second = await start({ ...env, ORPHAN_GRACE_SECONDS: '0' });
    const list = (await (await fetch(`${second.url}/api/images?limit=100`, { headers })).json()) as {
      images: { r2_key: string; thumbnails: { small: string; medium: string } | null }[];
    };
    // An image finished before the kill has its thumbnails too: objects of a record, named by its URLs.
    const keyOf = (url: string) => new URL(url).pathname.replace(/^\/files\//, '');
    const recorded = list.images
      .flatMap((image) => [image.r2_key, ...(image.thumbnails === null ? [] : [keyOf(image.thumbnails.small), keyOf(image.thumbnails.medium)])])
      .sort();

    // Every object has its record and every record its object; nothing temporary is left anywhere.
    const remaining = filesUnder(blobs);
    expect(remaining).toEqual(recorded);
    expect(remaining.filter((file) => file.endsWith('.tmp') || file.startsWith('.'))).toEqual([]);
    expect(list.images.length).toBeLessThan(60);

    // The log names exactly what went.
    const removed = leftBehind.filter((file) => !remaining.includes(file));
    const cleaned = logLines(second).find((line) => line.msg?.startsWith('blob store cleaned'));
    expect(cleaned).toBeDefined();
    expect([...(cleaned?.orphans ?? []), ...(cleaned?.incomplete ?? [])].sort()).toEqual(removed);
    expect(cleaned?.orphans).toEqual(expect.arrayContaining(['generated/img_planted_orphan.png', 'generated/img_planted.png.a1b2c3d4e5f6.tmp']));
    expect(cleaned?.incomplete).toContain('.incoming/planted.tmp');

    // A temporary file is never served, even while it exists; nor are folders, paths under a file, or huge names.
    const fresh = await fetch(`${second.url}/api/generate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'a lighthouse after the storm', model: 'local/procedural', width: 64, height: 64 }),
    });
    const { r2_key: key } = (await fresh.json()) as { r2_key: string };
    expect((await fetch(`${second.url}/files/${key}`)).status).toBe(200);
    plant(blobs, '.incoming/in-flight.tmp', 'partial');
    await expectNotFound(`${second.url}/files/.incoming/in-flight.tmp`);
    await expectNotFound(`${second.url}/files/generated/img_planted.png.a1b2c3d4e5f6.tmp`);
    await expectNotFound(`${second.url}/files/generated`);
    await expectNotFound(`${second.url}/files/${key}/x`);
    await expectNotFound(`${second.url}/files/generated/${'a'.repeat(300)}.png`);
  }, 60_000);
});
