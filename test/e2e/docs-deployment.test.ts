import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRedisPrefix } from '../../src/test-support/redis-keys.js';
import { skipWithout, TEST_DATABASE_URL, TEST_REDIS_URL } from '../../src/test-support/services.js';
import { ensureBuilt } from './built-cli.js';
import { adminQuery, dropDeployment } from './deployment.js';
import { codeBlocks, commandLines, docsSection, missingExpectation, runScript, type ScriptRun } from './docs-blocks.js';
import { freePort, tempDataDir } from './spawn-server.js';

/**
 * The one-machine deployment of docs/deployment.md, run as it is written, in the clone: the s3rver command with its
 * documented flags, then `imagegate serve --no-workers` and `imagegate worker` started at the same moment on an empty
 * database and a new bucket, a batch the worker runs, its image served by s3rver, and a SIGTERM that stops them all.
 * Only what would collide with other tests changes: the ports, the database, the folder of s3rver's objects, and
 * the Redis prefix.
 */
const skip = await skipWithout('postgres', 'redis');
const ROOT = path.resolve(import.meta.dirname, '../..');
const SECTION = 'On one machine: s3rver, PostgreSQL and Redis';
const script = codeBlocks(docsSection('deployment.md', SECTION), 'bash').join('\n');
const database = `imagegate_e2e_docs_${process.pid}_${randomBytes(3).toString('hex')}`;
const prefix = freshRedisPrefix('e2e-docs-deployment');

/** The page's text with `from` replaced by `to`, which must be there: a page that changes says so here. */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the "${SECTION}" block of docs/deployment.md no longer has ${from}; update this test`);
  return text.replaceAll(from, to);
}

describe.skipIf(skip)('the one-machine deployment of docs/deployment.md', () => {
  let run: ScriptRun;
  let workDir = '';
  let ports = { s3: 0, api: 0 };

  beforeAll(async () => {
    // bin/imagegate.js runs the build in dist/.
    await ensureBuilt();
    await adminQuery(`create database "${database}"`);
    workDir = tempDataDir();
    ports = { s3: await freePort(), api: await freePort() };
    const databaseUrl = new URL(TEST_DATABASE_URL);
    databaseUrl.pathname = `/${database}`;
    let text = replaced(script, './s3-data', path.join(workDir, 's3-data'));
    text = replaced(text, '4569', String(ports.s3));
    text = replaced(text, '127.0.0.1:8787', `127.0.0.1:${ports.api}`);
    text = replaced(text, 'postgres://postgres@127.0.0.1:5432/imagegate', databaseUrl.toString());
    text = replaced(text, 'redis://127.0.0.1:6379', TEST_REDIS_URL);
    const file = path.join(workDir, 'deployment.sh');
    fs.writeFileSync(file, text);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: workDir,
      // Not set by the page: the API's port (8787 there), this test's Redis keys, and a data folder outside the clone.
      PORT: String(ports.api),
      REDIS_PREFIX: prefix,
      DATA_DIR: path.join(workDir, 'data'),
    };
    run = await runScript(file, env, 240_000, ROOT);
    // A first build of dist/ takes a minute on a busy 2-core machine.
  }, 480_000);

  afterAll(async () => {
    await dropDeployment(database, prefix);
  }, 30_000);

  it('starts s3rver, then the API and a worker together, each as the process its job control signals (not npx)', () => {
    const commands = commandLines(script);
    expect(commands.filter((line) => line.endsWith(' &'))).toEqual([
      'node_modules/.bin/s3rver --directory ./s3-data --address 127.0.0.1 --port 4569 --no-vhost-buckets --silent --configure-bucket imagegate &',
      'node bin/imagegate.js serve --no-workers &',
      'node bin/imagegate.js worker &',
    ]);
    expect(commands.at(-1)).toBe('kill $(jobs -p) && wait');
  });

  it('runs top to bottom and exits 0, after the API and the worker stopped gracefully', () => {
    expect(run.code, `exit ${run.code}\n--- stderr\n${run.stderr.slice(-3000)}\n--- stdout (end)\n${run.stdout.slice(-5000)}`).toBe(0);
    expect(run.stdout).toContain('"msg":"imagegate stopped"');
    expect(run.stdout).toContain('"msg":"imagegate worker stopped"');
  });

  it('answers what its "# ->" lines say, in order', () => {
    expect(missingExpectation(script, run.stdout, (expected) => expected.replaceAll('4569', String(ports.s3)))).toBeUndefined();
  });

  it('stored the images in the bucket, in the folder s3rver was given', () => {
    const generated = path.join(workDir, 's3-data', 'imagegate', 'generated');
    expect(fs.readdirSync(generated).filter((name) => name.endsWith('.png._S3rver_object')).length).toBeGreaterThanOrEqual(2);
  });
});
