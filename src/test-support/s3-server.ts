import { spawn } from 'node:child_process';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const SCRIPT = path.join(import.meta.dirname, 's3-server-main.ts');

export interface S3TestServer {
  /** e.g. `http://127.0.0.1:43125` (S3_ENDPOINT), addressed path-style (S3_FORCE_PATH_STYLE=true). */
  endpoint: string;
  /** What s3rver accepts (its one account, `S3RVER`/`S3RVER`). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  region: string;
  /**
   * Creates the bucket (if new) and answers its public base URL, `<endpoint>/<bucket>` (S3_PUBLIC_URL):
   * the server answers an anonymous GET of `<endpoint>/<bucket>/<key>` with the object.
   */
  bucket(name: string): Promise<{ name: string; publicUrl: string }>;
  close(): Promise<void>;
}

/**
 * Starts s3rver in its own process on a free loopback port, with a fresh temporary folder. Its own
 * process because s3rver pages listings with DES, which Node 20 has only behind --openssl-legacy-provider.
 */
export async function startS3Server(options: { buckets?: string[] } = {}): Promise<S3TestServer> {
  const args = ['--openssl-legacy-provider', '--import', 'tsx', SCRIPT, '--exit-with-stdin', ...(options.buckets ?? []).flatMap((name) => ['--bucket', name])];
  // stdin is a pipe the server watches: when this process dies, so does the server.
  const child = spawn(process.execPath, args, { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const end = output.indexOf('\n');
      if (end >= 0) resolve(output.slice(0, end));
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`s3 server exited with ${String(code)} before it was ready: ${output}`)));
  });
  const ready = JSON.parse(line) as { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string; buckets: string[] };
  const credentials = { accessKeyId: ready.accessKeyId, secretAccessKey: ready.secretAccessKey };
  const admin = new S3Client({ endpoint: ready.endpoint, forcePathStyle: true, region: ready.region, credentials });
  const known = new Set(ready.buckets);
  return {
    endpoint: ready.endpoint,
    credentials,
    region: ready.region,
    async bucket(name) {
      if (!known.has(name)) {
        await admin.send(new CreateBucketCommand({ Bucket: name }));
        known.add(name);
      }
      return { name, publicUrl: `${ready.endpoint}/${name}` };
    },
    async close() {
      admin.destroy();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
