import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { buildDeps, type Runtime } from '../../../src/runtimes/node/deps.js';
import { createTestClock, testCpuPool, type TestClock } from '../../../src/test-support/harness.js';
import { startS3Server, type S3TestServer } from '../../../src/test-support/s3-server.js';

/**
 * The storage readiness check of processes that share a bucket, run at the same moments: as two API processes and
 * a worker started together do. With one shared probe key they raced on it, and s3rver crashed on the race.
 * (This s3rver did not crash here on the shared key in 200 rounds of 6: the race needs a timing this test cannot
 * force; it holds the property, every check passing and nothing left behind.)
 *
 *   PROBE_ROUNDS=<n> (default 25)   PROBE_PROCESSES=<n> (default 3)
 */
const PROCESSES = Number(process.env.PROBE_PROCESSES ?? 3);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 25);
const BUCKET = 'probes';

let s3: S3TestServer;
const runtimes: { runtime: Runtime; clock: TestClock }[] = [];

beforeAll(async () => {
  s3 = await startS3Server({ buckets: [BUCKET] });
  // The SDK finds its credentials in the environment, as a deployment's processes do.
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey, AWS_REGION: s3.region });
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    STORAGE_DRIVER: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    S3_PUBLIC_URL: `${s3.endpoint}/${BUCKET}`,
    LOG_LEVEL: 'silent',
  });
  for (let i = 0; i < PROCESSES; i++) {
    const clock = createTestClock();
    runtimes.push({ runtime: await buildDeps(config, { clock, logger: pino({ level: 'silent' }), cpu: testCpuPool() }), clock });
  }
}, 30_000);

afterAll(async () => {
  await Promise.all(runtimes.map(({ runtime }) => runtime.close()));
  await s3?.close();
});

describe('the storage readiness check of several processes on one bucket', () => {
  it('passes for every process probing at the same moment, round after round, and leaves no object behind', async () => {
    const storageChecks = runtimes.map(({ runtime }) => runtime.deps.readiness.find((check) => check.name === 'storage'));
    for (let round = 1; round <= ROUNDS; round++) {
      // Past the cache of the last answer: every check writes and deletes again.
      for (const { clock } of runtimes) clock.advance(60_000);
      const results = await Promise.allSettled(storageChecks.map((check) => check?.check()));
      expect({ round, failed: results.filter((result) => result.status === 'rejected').map((result) => String(result.reason)) }).toEqual({ round, failed: [] });
    }
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: s3.region, credentials: s3.credentials });
    try {
      expect((await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'readiness/' }))).Contents ?? []).toEqual([]);
    } finally {
      client.destroy();
    }
  });
});
