import { pino } from 'pino';
import { createApp, type AppConfig } from '../app.js';
import { createMemoryBlobStore, type MemoryBlobStore } from '../adapters/blob/memory-blob-store.js';
import { createSqliteDatabase } from '../adapters/db/sqlite.js';
import type { Deps } from '../domain/context.js';
import { createModelCatalog } from '../domain/models/catalog.js';
import { sampleTemplates } from '../domain/templates/sample-templates.js';
import { PROVIDER_SPECS } from '../providers.js';
import { createProceduralProvider } from '../adapters/providers/procedural/procedural-provider.js';
import type { ImageProvider } from '../ports/image-provider.js';
import { createIdGenerator } from '../ports/ids.js';
import { createFlexibleRateLimiter } from '../adapters/rate-limit/flexible-rate-limiter.js';
import { bootstrapAdminKey } from '../domain/keys/bootstrap-admin-key.js';
import { createDatabaseQueue } from '../adapters/queue/database-queue.js';
import { createHttpWebhookTransport } from '../adapters/webhooks/http-webhook-transport.js';
import type { AddressLookup } from '../adapters/webhooks/address-policy.js';
import { startBatchWorkers } from '../domain/batches/batch-workers.js';
import type { BatchSettings } from '../domain/context.js';
import type { WebhookTransport } from '../ports/webhook-transport.js';

export const TEST_KEY = 'igk_test_harness_key';
export const TEST_CLIENT_ADDRESS_HEADER = 'X-Test-Client-Address';

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
  /** Start the batch and webhook workers (default true). */
  workers?: boolean;
}

export const TEST_WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export interface Harness {
  app: ReturnType<typeof createApp>;
  deps: Deps;
  blobs: MemoryBlobStore;
  clock: TestClock;
  /** `app.request` with the harness key and JSON handling filled in. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** An app on an in-memory SQLite database and blob store, with a controllable clock and a silent logger. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const db = createSqliteDatabase(':memory:');
  await db.migrate();
  await db.templates.seed(sampleTemplates);
  const clock = createTestClock();
  const blobs = createMemoryBlobStore('http://localhost:8787/files', { clock });
  const providers = new Map<string, ImageProvider>([['local', createProceduralProvider()]]);
  for (const [id, provider] of Object.entries(options.providers ?? {})) providers.set(id, provider);
  const models = PROVIDER_SPECS.flatMap((spec) => spec.models({ CLOUDFLARE_API_BASE_URL: '', OPENAI_BASE_URL: '', REPLICATE_BASE_URL: '', STABILITY_BASE_URL: '', FAL_BASE_URL: '' }));
  const catalog = createModelCatalog(models, (provider) =>
    providers.has(provider)
      ? { available: true }
      : { available: false, reason: `set ${PROVIDER_SPECS.find((spec) => spec.id === provider)?.requires.join(' and ') ?? '?'} to enable provider ${provider}` },
  );
  let seed = 1;
  const logger = pino({ level: 'silent' });
  const lookup: AddressLookup = options.lookup ?? (async () => [{ address: '127.0.0.1', family: 4 }]);
  const deps: Deps = {
    db,
    blobs,
    providers,
    catalog,
    clock,
    rateLimiter: createFlexibleRateLimiter({ clock }),
    queue: createDatabaseQueue({ db: db.kysely, clock, logger, pollMs: 20 }),
    webhooks: options.webhooks ?? createHttpWebhookTransport({ lookup, allowPrivateNetworks: options.allowPrivateNetworks ?? true }),
    batchSettings: { maxPrompts: 100, concurrency: 4, retryScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000], webhookSecret: TEST_WEBHOOK_SECRET, ...options.batch },
    ids: createIdGenerator(() => clock.now().getTime()),
    logger,
    randomSeed: () => seed++,
  };
  const config: AppConfig = {
    authMode: 'api_key',
    allowedIps: [],
    clientIpHeader: 'CF-Connecting-IP',
    ...options.config,
  };
  await bootstrapAdminKey(deps, TEST_KEY);
  if (options.workers !== false) await startBatchWorkers(deps);
  // Tests name the peer address in a header; the real server reads it from the socket.
  const app = createApp({ deps, config, serveFiles: true, clientAddress: (c) => c.req.header(TEST_CLIENT_ADDRESS_HEADER) ?? '127.0.0.1' });

  return {
    app,
    deps,
    blobs,
    clock,
    call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...authHeader(config), ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        init.headers = { 'Content-Type': 'application/json', ...init.headers };
      }
      return Promise.resolve(app.request(path, init));
    },
    async close() {
      await deps.queue.close();
      await db.close();
    },
  };
}

const authHeader = (config: AppConfig): Record<string, string> =>
  config.authMode === 'api_key' ? { Authorization: `Bearer ${TEST_KEY}` } : {};

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
