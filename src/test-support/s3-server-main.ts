/**
 * An S3-compatible server (s3rver) as its own process, for tests and for trying S3 mode by hand:
 *
 *   node --openssl-legacy-provider --import tsx src/test-support/s3-server-main.ts [--port 9000] [--bucket imagegate]... [--exit-with-stdin]
 *
 * It prints one JSON line, `{"endpoint","region","accessKeyId","secretAccessKey","buckets"}`, serves
 * objects path-style (`<endpoint>/<bucket>/<key>`, readable by an anonymous GET), stores them in a
 * temporary folder removed at exit, and exits on SIGTERM or SIGINT; with `--exit-with-stdin`, also when
 * its stdin closes, so it dies with a test process that spawned it with a pipe.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';

const ACCOUNT = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

// s3rver signs ListObjectsV2 continuation tokens with DES, which OpenSSL 3 only has in its legacy provider.
try {
  crypto.createCipheriv('des', Buffer.alloc(8), Buffer.alloc(8));
} catch {
  process.stderr.write('s3 server: run node with --openssl-legacy-provider (s3rver pages listings with DES-encrypted tokens)\n');
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    bucket: { type: 'string', multiple: true, default: [] },
    'exit-with-stdin': { type: 'boolean', default: false },
  },
});
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'imagegate-s3-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(values.port),
  silent: true,
  directory,
  // Path-style only, so an object's public URL is `<endpoint>/<bucket>/<key>` whatever the host name.
  vhostBuckets: false,
  configureBuckets: values.bucket.map((name) => ({ name })),
});
keepDirectories(server);
const { port } = await server.run();

/**
 * s3rver removes a folder once the last object in it is deleted. A put into that folder at the same moment (two
 * processes starting at once, each writing and deleting its own `readiness/probe-*`) then writes into a folder that
 * is gone, and the unhandled ENOENT of that write stream kills the server: every process after it is refused. Real
 * S3 has no folders; this server keeps them, deleting only an object's own files.
 */
function keepDirectories(s3: S3rver): void {
  const store = (s3 as unknown as { store: FileStore }).store;
  store.deleteObject = async (bucket, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((kind) => store.getResourcePath(bucket, key, kind));
    await Promise.all(
      files.map((file) => fs.promises.unlink(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)))),
    );
  };
}

interface FileStore {
  getResourcePath(bucket: string, key: string, kind: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

// Whatever else s3rver leaves unhandled fails that one request, said on stderr, instead of refusing every later one.
process.on('uncaughtException', (error) => process.stderr.write(`s3 server: ${error.stack ?? error.message}\n`));

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close().catch(() => undefined);
  fs.rmSync(directory, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
if (values['exit-with-stdin']) {
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();
}

process.stdout.write(`${JSON.stringify({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', ...ACCOUNT, buckets: values.bucket })}\n`);
