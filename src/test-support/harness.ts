import { pino } from 'pino';
import { createCpuPool, type CpuPool } from '../adapters/cpu/cpu-pool.js';
import type { ClaimLease } from '../http/middleware/idempotency.js';
import { createMemoryBlobStore } from '../adapters/blob/memory-blob-store.js';
import type { AddressLookup } from '../adapters/webhooks/address-policy.js';
import { createHttpWebhookTransport } from '../adapters/webhooks/http-webhook-transport.js';
import type { AppConfig } from '../app.js';
import { createNodeApp } from '../runtimes/node/app.js';
import { type Config } from '../config/config.js';
import { loadConfig } from '../runtimes/node/config.js';
import { buildDeps } from '../runtimes/node/deps.js';
import { registerGenerationJobs, startBatchWorkers } from '../domain/batches/batch-workers.js';
import type { JobRetryPolicy } from '../adapters/queue/retry-policy.js';
import type { BatchSettings, Deps } from '../domain/context.js';
import { bootstrapAdminKey } from '../domain/keys/bootstrap-admin-key.js';
import type { BlobStore } from '../ports/blob-store.js';
import { createIdGenerator } from '../ports/ids.js';
import type { ImageProvider } from '../ports/image-provider.js';
import type { WebhookTransport } from '../ports/webhook-transport.js';
import { deleteRedisKeys, freshRedisPrefix } from './redis-keys.js';
import { startS3Server, type S3TestServer } from './s3-server.js';
import { createTestSchema } from './test-schema.js';
import { TEST_CLIENT_ADDRESS_HEADER } from './harness-protocol.js';

export const TEST_KEY = 'igk_test_harness_key';

export { TEST_CLIENT_ADDRESS_HEADER };

/**
 * Where the service under test runs: in this process (`createNodeApp`), or, in the wrangler-dev project
 * (IMAGEGATE_HARNESS=wrangler-dev), in `wrangler dev`'s workerd, reached over a socket.
 */
export const HARNESS_TARGET: 'in-process' | 'wrangler-dev' = process.env.IMAGEGATE_HARNESS === 'wrangler-dev' ? 'wrangler-dev' : 'in-process';

/** Objects stored per image: the image and its two WebP thumbnails; the Worker's PNG-only codec makes none. */
export const OBJECTS_PER_IMAGE = HARNESS_TARGET === 'wrangler-dev' ? 1 : 3;

export interface TestClock {
  now(): Date;
  set(iso: string): void;
  advance(ms: number): void;
}

export function createTestClock(start = '2026-11-20T10:00:00.000Z'): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (iso) => {
      current = new Date(iso).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface HarnessOptions {
  config?: Partial<AppConfig>;
  /** Extra or replacement providers by id, e.g. a fake `workers-ai` to make its models available. */
  providers?: Record<string, ImageProvider>;
  batch?: Partial<BatchSettings>;
  /** Defaults to the real HTTP transport with private networks allowed (receivers run on loopback). */
  webhooks?: WebhookTransport;
  /** DNS for the default transport; defaults to answering every name with 127.0.0.1. */
  lookup?: AddressLookup;
  allowPrivateNetworks?: boolean;
  /** How the queue retries a job that threw (default: the production policy). */
  jobRetry?: JobRetryPolicy;
  /** Start the batch and webhook workers (default true). Generation jobs run either way, unless `generationJobs` is false. */
  workers?: boolean;
  /** Run generation jobs (default true): false keeps every accepted generation queued. */
  generationJobs?: boolean;
  /** `memory` keeps images in memory even when the run names another store (tests of time-stamped listings). */
  storage?: 'configured' | 'memory';
  /** `own`: a CPU pool of the harness's runtime, closed with it, as the server has; default `shared` (testCpuPool). */
  cpu?: 'shared' | 'own';
  /** The lease of running Idempotency-Key claims (the app's default otherwise). */
  idempotencyLease?: ClaimLease;
}

let sharedCpu: CpuPool | undefined;

/**
 * The CPU pool the harnesses of one test file share: starting a worker thread (and sharp in it) takes most
 * of a second, too much for every test. One thread, started by the first render; piscina unrefs idle
 * threads, so the pool never keeps the test process alive.
 */
export function testCpuPool(): CpuPool {
  sharedCpu ??= createCpuPool({ threads: 1 });
  return sharedCpu;
}

export interface TestBlobStore extends BlobStore {
  /** Every key in the store, sorted. */
  keys(): Promise<string[]>;
}

export const TEST_WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The app as tests reach it: Hono's `request` (a path, or a Request) and `fetch`, in process or over a socket. */
export interface HarnessApp {
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
  fetch(request: Request): Response | Promise<Response>;
}

export interface Harness {
  app: HarnessApp;
  deps: Deps;
  blobs: TestBlobStore;
  clock: TestClock;
  /** GET of a public image URL (`r2_url`): through the app for `/files`, over HTTP for a bucket. */
  fetchPublic(url: string): Promise<Response>;
  /** `app.request` with the harness key and JSON handling filled in; a FormData body is sent as multipart. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Resolves once no job is running or due to run now (batch prompts, webhook deliveries). */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

/** Settings a test run may give to run the whole suite on other adapters (the scale-out project). */
const ADAPTER_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'REDIS_URL',
  'STORAGE_DRIVER',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_PUBLIC_URL',
] as const;

/**
 * The run's adapters, each isolated for this harness: a fresh PostgreSQL schema, a fresh Redis prefix,
 * and a test S3 server (started once per test process) when the run asks for S3 without naming one.
 */
async function harnessConfig(extra: Record<string, string | undefined> = {}): Promise<{ config: Config; cleanup: () => Promise<void> }> {
  const env: Record<string, string | undefined> = { DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...extra };
  for (const name of ADAPTER_SETTINGS) if (process.env[name] !== undefined) env[name] = process.env[name];
  const cleanups: (() => Promise<void>)[] = [];
  if (env.DATABASE_URL?.startsWith('postgres') === true) {
    const schema = await createTestSchema(env.DATABASE_URL);
    env.DATABASE_SCHEMA = schema.name;
    cleanups.push(schema.drop);
  }
  if (env.REDIS_URL !== undefined) {
    const prefix = freshRedisPrefix('harness');
    env.REDIS_PREFIX = prefix;
    cleanups.push(() => deleteRedisKeys(prefix));
  }
  if (env.STORAGE_DRIVER === 's3' && env.S3_ENDPOINT === undefined) Object.assign(env, await testS3Bucket());
  return { config: loadConfig(env), cleanup: async () => void (await Promise.all(cleanups.map((cleanup) => cleanup()))) };
}

let testS3: Promise<S3TestServer> | undefined;
let buckets = 0;

/**
 * One s3rver per test process, a fresh bucket per harness; the SDK finds its credentials in the
 * environment, as it would in production.
 */
async function testS3Bucket(): Promise<Record<string, string>> {
  testS3 ??= startS3Server().then((server) => {
    process.env.AWS_ACCESS_KEY_ID = server.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = server.credentials.secretAccessKey;
    process.env.AWS_REGION = server.region;
    return server;
  });
  const server = await testS3;
  const bucket = await server.bucket(`harness-${process.pid}-${(buckets += 1)}`);
  return { S3_BUCKET: bucket.name, S3_ENDPOINT: server.endpoint, S3_FORCE_PATH_STYLE: 'true', S3_PUBLIC_URL: bucket.publicUrl };
}

/**
 * An app built by `buildDeps`, like the server's: on an in-memory SQLite database and blob store by
 * default (or the adapters the environment names), with a controllable clock and a silent logger.
 */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = createTestClock();
  if (HARNESS_TARGET === 'wrangler-dev') {
    const { createWranglerHarness } = await import('./wrangler-harness.js');
    return createWranglerHarness(options, clock, TEST_KEY, { app: options.config, batch: batchSettings(options), idempotencyLease: options.idempotencyLease });
  }
  // A metrics token in the app's config also makes the runtime record metrics, as METRICS_TOKEN does for a server.
  const { config, cleanup } = await harnessConfig({ METRICS_TOKEN: options.config?.metrics?.token });
  const memory = createMemoryBlobStore('http://localhost:8787/files', { clock });
  const useMemoryBlobs = options.storage === 'memory' || config.storage.driver === 'local';
  const lookup: AddressLookup = options.lookup ?? (async () => [{ address: '127.0.0.1', family: 4 }]);
  let seed = 1;
  const runtime = await buildDeps(config, {
    clock,
    ids: createIdGenerator(() => clock.now().getTime()),
    randomSeed: () => seed++,
    logger: pino({ level: 'silent' }),
    providers: options.providers,
    blobs: useMemoryBlobs ? memory : undefined,
    webhooks: options.webhooks ?? createHttpWebhookTransport({ lookup, allowPrivateNetworks: options.allowPrivateNetworks ?? true }),
    batch: batchSettings(options),
    queuePollMs: 20,
    jobRetry: options.jobRetry,
    cpu: options.cpu === 'own' ? undefined : testCpuPool(),
  });
  const { deps } = runtime;
  const appConfig: AppConfig = {
    authMode: 'api_key',
    allowedIps: [],
    clientIpHeader: 'CF-Connecting-IP',
    ...options.config,
  };
  await bootstrapAdminKey(deps, TEST_KEY);
  const workers = options.workers === false ? undefined : await startBatchWorkers(deps);
  // Without them POST /api/generate would wait for ever: a single generation is a job like any other.
  if (workers === undefined && options.generationJobs !== false) registerGenerationJobs(deps);
  // Tests name the peer address in a header; the real server reads it from the socket.
  const app = createNodeApp({
    deps,
    config: appConfig,
    serveFiles: true,
    clientAddress: (c) => c.req.header(TEST_CLIENT_ADDRESS_HEADER) ?? '127.0.0.1',
    idempotencyLease: options.idempotencyLease,
  });

  return {
    app,
    deps,
    blobs: withKeys(deps.blobs),
    clock,
    fetchPublic: async (url) => (url.startsWith('http://localhost:8787/files/') ? app.request(new URL(url).pathname) : fetch(url)),
    call: (method, path, body, headers = {}) => Promise.resolve(app.request(path, callInit(appConfig, method, body, headers))),
    drainJobs: () => deps.queue.drain(),
    async close() {
      await workers?.stop();
      await runtime.close();
      await cleanup();
    },
  };
}

const batchSettings = (options: HarnessOptions): Partial<BatchSettings> => ({
  maxPrompts: 100,
  concurrency: 4,
  retryScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000],
  webhookSecret: TEST_WEBHOOK_SECRET,
  ...options.batch,
});

/** What `call` sends: the harness key (in key-based mode), JSON handling, a FormData body as multipart. */
export function callInit(config: Partial<AppConfig> = {}, method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit {
  const init: RequestInit = { method, headers: { ...authHeader(config), ...headers } };
  if (body instanceof FormData) {
    // fetch sets multipart/form-data with its boundary.
    init.body = body;
  } else if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json', ...init.headers };
  }
  return init;
}

/** The store with a way for tests to see every key, through the port (so it works on every adapter). */
function withKeys(blobs: BlobStore): TestBlobStore {
  return Object.assign(Object.create(blobs) as BlobStore, {
    async keys() {
      const keys: string[] = [];
      for await (const page of blobs.list('')) keys.push(...page.map((object) => object.key));
      return keys.sort();
    },
  });
}

const authHeader = (config: Partial<AppConfig>): Record<string, string> =>
  (config.authMode ?? 'api_key') === 'api_key' ? { Authorization: `Bearer ${TEST_KEY}` } : {};

export async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/**
 * A 400 about one field, in either mode's wording: the spec's `Invalid <field>` (IP allow-list mode) or,
 * in key-based mode, an `error` that describes the parameter; `details.field` and the code are the same.
 */
export async function expectInvalid(response: Response, expected: string): Promise<Record<string, unknown>> {
  const body = await json(response);
  const { expect } = await import('vitest');
  expect(response.status).toBe(400);
  if (expected === 'Invalid model' || expected === 'Invalid request body') {
    expect(body.error).toBe(expected);
    return body;
  }
  const field = expected.replace(/^Invalid /, '');
  expect(body.code).toBe('INVALID_PARAMETER');
  expect(body.details).toMatchObject({ field });
  const message = (body.details as { message?: unknown }).message;
  expect(body.error === `Invalid ${field}` || body.error === message).toBe(true);
  return body;
}
