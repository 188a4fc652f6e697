import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './spawn-server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Workers AI's REST shape on loopback: Phoenix answers raw JPEG bytes. */
let server: http.Server;
let baseUrl = '';
const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
beforeAll(async () => {
  const jpeg = await sharp({ create: { width: 96, height: 64, channels: 3, background: 'orange' } })
    .jpeg()
    .toBuffer();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      res.end(jpeg);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('imagegate generate (CLI)', () => {
  it('runs a prompt on a remote model and writes a PNG, converted from the JPEG the provider sent', async () => {
    const dataDir = tempDataDir();
    const out = path.join(dataDir, 'out.png');
    const { stdout, stderr } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(ROOT, 'src/runtimes/node/entry/node.ts'),
        'generate',
        'a lighthouse at dusk',
        '--model',
        '@cf/leonardo/phoenix-1.0',
        '--steps',
        '10',
        '--out',
        out,
      ],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: dataDir,
          CLOUDFLARE_ACCOUNT_ID: 'acct',
          CLOUDFLARE_API_TOKEN: 'secret-token',
          CLOUDFLARE_API_BASE_URL: baseUrl,
        },
      },
    );
    expect(stdout).toContain(`Wrote ${out}: 96x64 PNG from @cf/leonardo/phoenix-1.0`);
    expect(stderr).toContain(`imagegate: using database ${path.join(dataDir, 'imagegate.sqlite')}`);
    const meta = await sharp(fs.readFileSync(out)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 96, 64]);
    expect(seen[0]).toMatchObject({
      path: '/client/v4/accounts/acct/ai/run/@cf/leonardo/phoenix-1.0',
      auth: 'Bearer secret-token',
      body: { prompt: 'a lighthouse at dusk', num_steps: 10 },
    });
  }, 60_000);
});
