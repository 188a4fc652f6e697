import { availableParallelism } from 'node:os';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { skipWithout } from './src/test-support/services.js';

/**
 * Two runs of one suite. `embedded`: every test on the defaults (SQLite, local disk, in-process queue and
 * limits), plus the contract suites of every adapter. `scale-out`: every test that builds the service
 * through the harness, again on PostgreSQL, S3 (a test s3rver) and Redis, as a deployment would run.
 */
const SCALE_OUT_ENV = {
  DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  STORAGE_DRIVER: 's3',
  // The fuzz tests build a service per run, here on PostgreSQL and S3: the embedded pass runs the full count (300 and
  // 100); this one checks the same properties on the scale-out adapters with fewer runs, to keep the suite's time.
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '30',
};

/**
 * The project's own suites that also run against `wrangler dev` (the wrangler-dev project), and the files among them
 * that are about this process: within the others, such tests are marked inProcessOnly or nodeOnly.
 */
const WRANGLER_DEV_SUITES = ['test/api/routes/**/*.test.ts', 'test/api/keys/**/*.test.ts', 'test/api/batches/**/*.test.ts'];
const IN_PROCESS_SUITES = [
  // Each makes a dependency fail, or drives the queue, through the harness's deps.
  'test/api/routes/outages.test.ts',
  'test/api/batches/infrastructure-retries.test.ts',
  'test/api/batches/provider-slots.test.ts',
  // Node's pages and CPU pool; the Worker serves dist/web as static assets (test/runtimes/wrangler-dev/worker-api.test.ts).
  'test/api/routes/web-app.test.ts',
  'test/api/routes/generate-cpu-pool.test.ts',
  // Node's DNS pinning, with the test's own resolver; the Worker checks addresses over DNS-over-HTTPS (docs/cloudflare-workers.md).
  'test/api/batches/ssrf.test.ts',
];

const KILL_TEST = 'test/runtimes/wrangler-dev/batch-kill.test.ts';
// Twenty 48 MB uploads at once (about 1 GB through one server and its disk): run alone, after everything else. Among
// the other suites on two cores, a few of its uploads failed on the client's side (EPIPE) with nothing in the
// server's log; alone it passes, and `npm run bench` measures the same load.
const UPLOADS_LOAD_TEST = 'test/e2e/uploads-load.test.ts';

/**
 * `npm run test:fast` (IMAGEGATE_FAST=1, embedded only): the inner loop leaves out what starts processes, browsers or
 * servers of its own, the client SDKs, the fuzzers and the PostgreSQL, Redis and BullMQ suites.
 */
const FAST_LANE_SKIPS =
  process.env.IMAGEGATE_FAST === '1'
    ? [
        'test/e2e/**',
        'test/browser/**',
        'test/api/fuzz/**',
        'test/e2e/clients/**',
        'test/contracts/{postgres,bullmq,redis}*',
        'test/contracts/jobs/bullmq*',
        'src/adapters/db/postgres*',
        'src/adapters/queue/bullmq*',
      ]
    : [];

// Outside CI, a machine without PostgreSQL or Redis runs the embedded project only (the reason is printed);
// under CI=true the scale-out project always runs, and fails when a server is missing.
const scaleOut = process.env.CI === 'true' || !(await skipWithout('postgres', 'redis'));

// Most test time is waiting (spawned servers, PostgreSQL, Redis, Chromium), not CPU: vitest's default of one
// worker per core minus one would run the files one by one on a 2-core machine.
const WORKERS = Math.max(3, availableParallelism());

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // Files share a worker's module graph instead of importing the app again each (about 1.6 s of CPU a file, a third
    // of the suite's time). Test files hold no module-level state of the app's: each builds its own service.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'embedded',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/runtimes/workers/**', 'test/runtimes/wrangler-dev/**', 'node_modules/**', UPLOADS_LOAD_TEST, ...FAST_LANE_SKIPS],
        },
      },
      { extends: true, test: { name: 'embedded-alone', include: [UPLOADS_LOAD_TEST], sequence: { groupOrder: 2 } } },
      // `workers`: the Workers adapters' contract suites inside workerd (Miniflare's local R2, D1, Queues and
      // Durable Objects, from npm; nothing reaches Cloudflare), with the bindings of test/runtimes/workers/wrangler.jsonc.
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './test/runtimes/workers/wrangler.jsonc' },
            remoteBindings: false,
            // The files `wrangler d1 migrations apply` would run, for the tests to apply to their D1 database.
            miniflare: { bindings: { D1_MIGRATIONS: await readD1Migrations('./migrations/d1') } },
          }),
        ],
        test: { name: 'workers', include: ['test/runtimes/workers/**/*.test.ts'], testTimeout: 20_000 },
      },
      // `wrangler-dev`: the service as `npx wrangler dev` runs it (the root wrangler.jsonc, local D1, R2, Queues and
      // Durable Objects), driven over real sockets, a kill included.
      // The route, key and batch suites run here too, their harness then reaching the service in `wrangler dev`.
      {
        extends: true,
        test: {
          name: 'wrangler-dev',
          include: ['test/runtimes/wrangler-dev/**/*.test.ts', ...WRANGLER_DEV_SUITES],
          exclude: [...IN_PROCESS_SUITES, KILL_TEST],
          env: { IMAGEGATE_HARNESS: 'wrangler-dev' },
          setupFiles: ['test/support/wrangler-harness-teardown.ts'],
          testTimeout: 120_000,
          hookTimeout: 150_000,
        },
      },
      // The kill mid-batch, after everything else: beside the harness's own `wrangler dev` processes, its polls went
      // unanswered for minutes (alone, or beside the other projects, it takes about 25 s).
      { extends: true, test: { name: 'wrangler-dev-kill', include: [KILL_TEST], testTimeout: 600_000, hookTimeout: 150_000, sequence: { groupOrder: 1 } } },
      ...(scaleOut
        ? [
            {
              extends: true as const,
              test: {
                name: 'scale-out',
                include: [
                  'test/api/routes/**/*.test.ts',
                  'test/api/keys/**/*.test.ts',
                  'test/api/batches/**/*.test.ts',
                  'test/api/hardening/**/*.test.ts',
                  'test/contracts/providers/**/*.test.ts',
                  'src/adapters/providers/**/*.test.ts',
                  'test/api/fuzz/**/*.test.ts',
                  'test/api/images/**/*.test.ts',
                  'test/api/inputs/**/*.test.ts',
                  'test/api/idempotency/**/*.test.ts',
                  'test/api/charges/**/*.test.ts',
                  'test/api/mcp/**/*.test.ts',
                  'test/e2e/clients/openai.test.ts',
                  'test/api/observability/**/*.test.ts',
                  'test/api/generations/fair-queue.test.ts',
                ],
                // Each provider's failure modes against its loopback fake: the same on any deployment (they reach the
                // database and storage only to record an image), and 70 s here against 9 s embedded.
                exclude: ['test/contracts/providers/provider-behaviour.test.ts'],
                env: SCALE_OUT_ENV,
                globalSetup: ['test/support/require-scale-out-services.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
