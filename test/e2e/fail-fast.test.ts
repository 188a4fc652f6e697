import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../src/test-support/s3-server.js';
import { TEST_DATABASE_URL } from '../../src/test-support/services.js';
import { adminQuery, s3Env } from './deployment.js';
import { freePort, startCliProcess, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const BUCKET = 'failfast';
const database = `imagegate_failfast_${process.pid}`;
let s3: S3TestServer;
let databaseUrl: string;
const running: ServerProcess[] = [];

beforeAll(async () => {
  s3 = await startS3Server({ buckets: [BUCKET] });
  await adminQuery(`drop database if exists "${database}" with (force)`);
  await adminQuery(`create database "${database}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  databaseUrl = url.toString();
}, 60_000);
afterEach(async () => {
  await Promise.all(running.splice(0).map((process_) => process_.stop('SIGKILL')));
});
afterAll(async () => {
  await s3.close();
  await adminQuery(`drop database if exists "${database}" with (force)`);
}, 60_000);

/** The process exits 1, and says why in one `imagegate:` line, without a stack trace. */
async function failsWith(process_: ServerProcess): Promise<string> {
  running.push(process_);
  expect(await process_.exited).toBe(1);
  const lines = process_
    .output()
    .split('\n')
    .filter((line) => line.startsWith('imagegate:'));
  expect(lines).toHaveLength(1);
  expect(process_.output()).not.toMatch(/\n\s+at /);
  return lines[0] ?? '';
}

const withoutRegion = (): Record<string, string> => {
  const { AWS_REGION: _region, ...env } = s3Env(s3, BUCKET);
  return env;
};

describe('a process that cannot use a dependency exits 1 with one line naming the setting (real processes)', () => {
  it('S3 without AWS_REGION: the server does not start and serve 500s', async () => {
    const line = await failsWith(await startServerProcess({ DATA_DIR: tempDataDir(), ...withoutRegion() }));
    expect(line).toMatch(/^imagegate: cannot use the bucket failfast at http:\/\/127\.0\.0\.1:\d+: no region; set AWS_REGION/);
  });

  it('S3 without AWS_REGION: the worker does not start either', async () => {
    const line = await failsWith(
      await startCliProcess(['worker'], { DATA_DIR: tempDataDir(), DATABASE_URL: databaseUrl, ...withoutRegion() }, 'imagegate worker started'),
    );
    expect(line).toContain('set AWS_REGION');
  });

  it('a bucket that does not exist', async () => {
    const line = await failsWith(await startServerProcess({ DATA_DIR: tempDataDir(), ...s3Env(s3, BUCKET), S3_BUCKET: 'no-such-bucket' }));
    expect(line).toContain('it does not exist; create it or fix S3_BUCKET');
  });

  it('an S3 endpoint where nothing answers', async () => {
    const line = await failsWith(
      await startServerProcess({ DATA_DIR: tempDataDir(), ...s3Env(s3, BUCKET), S3_ENDPOINT: `http://127.0.0.1:${await freePort()}` }),
    );
    expect(line).toContain('start the S3 server or fix S3_ENDPOINT');
  });

  it('Redis where nothing answers, for the server and the worker', async () => {
    const env = { DATA_DIR: tempDataDir(), DATABASE_URL: databaseUrl, REDIS_URL: `redis://:secret@127.0.0.1:${await freePort()}` };
    const line = await failsWith(await startServerProcess(env));
    expect(line).toMatch(/^imagegate: cannot reach Redis at REDIS_URL \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\).*start Redis or fix REDIS_URL$/);
    expect(line).not.toContain('secret');
    expect(await failsWith(await startCliProcess(['worker'], env, 'imagegate worker started'))).toContain('fix REDIS_URL');
    // Each process waits a few seconds for Redis before giving up: two starts take longer than the default 20 s under load.
  }, 60_000);
});
