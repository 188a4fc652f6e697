import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransientFailure } from '../../ports/dependency-unavailable.js';
import type { Logger } from '../../ports/logger.js';
import { startS3Server, type S3TestServer } from '../../test-support/s3-server.js';
import { createS3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

let server: S3TestServer;
let buckets = 0;
beforeAll(async () => {
  server = await startS3Server();
});
afterAll(async () => {
  await server.close();
});

async function open(over: Partial<S3BlobStoreOptions> = {}) {
  buckets += 1;
  const bucket = await server.bucket(`s3-store-${buckets}`);
  const options = {
    bucket: bucket.name,
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: server.region,
    credentials: server.credentials,
    publicBaseUrl: bucket.publicUrl,
  };
  return { bucket, store: createS3BlobStore({ ...options, ...over }) };
}

async function keys(store: ReturnType<typeof createS3BlobStore>, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const page of store.list(prefix)) found.push(...page.map((object) => object.key));
  return found.sort();
}

function warnings(): Logger & { warned: object[] } {
  const warned: object[] = [];
  const none = () => undefined;
  return {
    warned,
    warn: (fields: object | string) => void warned.push(typeof fields === 'string' ? { message: fields } : fields),
    error: none,
    info: none,
    debug: none,
  };
}

describe('S3 blob store', () => {
  it('takes credentials and region from the AWS_* environment when none are given', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: server.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
      AWS_REGION: server.region,
    });
    try {
      const { store } = await open({ credentials: undefined, region: undefined });
      await store.put('generated/img_env.png', PNG, 'image/png');
      expect((await store.get('generated/img_env.png'))?.contentType).toBe('image/png');
    } finally {
      for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('is refused by the server with credentials it does not know', async () => {
    const { store } = await open({ credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'WRONG' } });
    await expect(store.put('generated/img_x.png', PNG, 'image/png')).rejects.toThrow();
  });

  it('lists only keys this service could have written, skipping others in the bucket', async () => {
    const { bucket, store } = await open();
    const raw = new S3Client({ endpoint: server.endpoint, forcePathStyle: true, region: server.region, credentials: server.credentials });
    await raw.send(new PutObjectCommand({ Bucket: bucket.name, Key: 'generated/not ours.png', Body: PNG }));
    raw.destroy();
    await store.put('generated/img_1.png', PNG, 'image/png');
    expect(await keys(store, 'generated/')).toEqual(['generated/img_1.png']);
  });

  it('answers no unfinished uploads, and warns once, on a server that cannot list them (s3rver)', async () => {
    const logger = warnings();
    const { store } = await open({ logger });
    expect(await store.removeIncomplete(new Date(Date.now() + 60_000))).toEqual([]);
    expect(await store.removeIncomplete(new Date(Date.now() + 60_000))).toEqual([]);
    expect(logger.warned).toHaveLength(1);
  });

  it('builds public URLs on S3_PUBLIC_URL with one slash, even when it ends in one', async () => {
    const { store } = await open({ publicBaseUrl: 'https://images.example.com/' });
    expect(store.publicUrl('generated/img_1.png')).toBe('https://images.example.com/generated/img_1.png');
  });

  it('marks a server that refuses the connection as a transient failure, for work to run again', async () => {
    const own = await startS3Server({ buckets: ['gone'] });
    const { name } = await own.bucket('gone');
    const client = new S3Client({ endpoint: own.endpoint, forcePathStyle: true, region: own.region, credentials: own.credentials, maxAttempts: 1 });
    const store = createS3BlobStore({ bucket: name, client, publicBaseUrl: 'https://images.example.com' });
    await own.close();
    const failed = await store.get('generated/img_1.png').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isTransientFailure(failed)).toBe(true);
  });
});

describe('S3 test server', () => {
  it('stops answering once closed', async () => {
    const own = await startS3Server({ buckets: ['first'] });
    const { publicUrl } = await own.bucket('first');
    expect((await fetch(`${publicUrl}/missing.png`)).status).toBe(404);
    await own.close();
    await expect(fetch(`${publicUrl}/missing.png`)).rejects.toThrow();
  });
});
