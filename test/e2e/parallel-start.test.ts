import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { skipWithout } from '../../src/test-support/services.js';
import { adminQuery, deploymentEnv, dropDeployment } from './deployment.js';
import { startCliProcess, startServerProcess, type ServerProcess } from './spawn-server.js';

/**
 * Two API processes and a worker started at the same instant on one S3 server: each process's start-up check
 * writes and deletes a readiness object, and when they all used one key, s3rver crashed on the race
 * (ENOENT on `readiness/probe._S3rver_object`) and both API processes exited. The s3rver command itself, without the
 * test server's patch, is src/runtimes/node/readiness.test.ts's. Four starts (START_ROUNDS), all of them ready.
 */
const skip = await skipWithout('postgres', 'redis');
const ROUNDS = Number(process.env.START_ROUNDS ?? 4);
const BUCKET = 'imagegate';
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const database = `imagegate_e2e_start_${process.pid}_${randomBytes(3).toString('hex')}`;
const prefix = freshRedisPrefix('e2e-start');

let s3: S3TestServer;
let env: Record<string, string>;
const running = new Set<ServerProcess>();

const started = async (start: Promise<ServerProcess>): Promise<ServerProcess> => {
  const process_ = await start;
  running.add(process_);
  return process_;
};

async function stopAll(): Promise<void> {
  await Promise.all([...running].map((process_) => process_.stop('SIGKILL')));
  running.clear();
}

describe.skipIf(skip)('two API processes and a worker started at once on one S3 server', () => {
  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    s3 = await startS3Server({ buckets: [BUCKET] });
    env = deploymentEnv({ database, redisPrefix: prefix, s3, bucket: BUCKET, adminKey: ADMIN });
  }, 30_000);

  afterAll(async () => {
    await stopAll();
    await s3?.close();
    await dropDeployment(database, prefix);
  }, 30_000);

  it(`all come up, ${ROUNDS} times in a row, and leave no readiness object behind`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const [api1, api2, worker] = await Promise.all([
        started(startServerProcess(env, ['--no-workers'])),
        started(startServerProcess(env, ['--no-workers'])),
        started(startCliProcess(['worker'], env, 'imagegate worker started')),
      ]);
      const exited = [api1, api2, worker].filter((process_) => process_.child.exitCode !== null).map((process_) => process_.output());
      // A process that stopped answering says why: its own output, not a bare ECONNREFUSED.
      const readiness = async (api: ServerProcess) => {
        if (api.child.exitCode !== null) return 'exited';
        return fetch(`${api.url}/health/ready`).then(
          (res) => res.status,
          (error: unknown) => `unreachable (${error instanceof Error ? error.message : String(error)}): ${api.output().slice(-2000)}`,
        );
      };
      const ready = await Promise.all([api1, api2].map(readiness));
      expect({ round, ready, exited }).toEqual({ round, ready: [200, 200], exited: [] });
      await stopAll();
    }
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: s3.region, credentials: s3.credentials });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'readiness' }));
      expect(listed.Contents ?? []).toEqual([]);
    } finally {
      client.destroy();
    }
  }, 120_000);
});
