import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../../adapters/blob/s3-blob-store.js';
import type { BlobStore } from '../../ports/blob-store.js';
import { STORAGE_PROBE_CACHE_MS, storageProbe } from './readiness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BUCKET = 'imagegate';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/**
 * The s3rver command as docs/deployment.md starts it, without the test server's patch (src/test-support/s3-server-main.ts):
 * s3rver removes a folder when its last object goes, and a put into that folder at the same moment crashes it.
 */
describe('the storage probes of processes started together, on the s3rver command of docs/deployment.md', () => {
  let s3rver: ChildProcess;
  let endpoint = '';
  let output = '';

  beforeAll(async () => {
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-s3rver-'));
    const args = ['--directory', directory, '--address', '127.0.0.1', '--port', String(port), '--no-vhost-buckets', '--silent', '--configure-bucket', BUCKET];
    s3rver = spawn(path.join(ROOT, 'node_modules/.bin/s3rver'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    s3rver.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    s3rver.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    for (let tries = 0; !output.includes('listening'); tries += 1) {
      if (tries > 200 || s3rver.exitCode !== null) throw new Error(`s3rver did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 30_000);

  afterAll(() => {
    s3rver?.kill('SIGTERM');
  });

  it('write and delete their own objects many times at once, and the server keeps answering', async () => {
    const store = (): BlobStore =>
      createS3BlobStore({
        bucket: BUCKET,
        endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        publicBaseUrl: `${endpoint}/${BUCKET}`,
      });
    // Each probe's clock moves past the cache at every call, so every call writes and deletes.
    const probes = Array.from({ length: 4 }, () => {
      let now = 0;
      return storageProbe(store(), { now: () => new Date((now += STORAGE_PROBE_CACHE_MS)) });
    });
    // Each in its own loop, as separate processes are: one's put meets another's delete.
    const failure = await Promise.all(
      probes.map(async (probe) => {
        for (let round = 0; round < 100; round += 1) await probe();
      }),
    ).then(
      () => undefined,
      (error: unknown) => String(error),
    );
    expect({ failure, exited: s3rver.exitCode }, output).toEqual({ failure: undefined, exited: null });
  }, 120_000);
});
