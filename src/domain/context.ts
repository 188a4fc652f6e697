import type { Logger } from '../ports/logger.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { Clock } from '../ports/clock.js';
import type { Database } from '../ports/database.js';
import type { IdGenerator } from '../ports/ids.js';
import type { GenerationEvents } from '../ports/generation-events.js';
import type { ImageCodec } from '../ports/image-codec.js';
import type { ImageProvider } from '../ports/image-provider.js';
import type { JobQueue } from '../ports/job-queue.js';
import type { Metrics } from '../ports/metrics.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { ReadinessCheck } from '../ports/readiness.js';
import type { WebhookTransport } from '../ports/webhook-transport.js';
import type { ModelCatalog } from './models/catalog.js';
import type { UploadGates } from './inputs/fair-gate.js';

/** Everything a domain verb may touch, as ports; `buildDeps` in src/runtimes/node/deps.ts picks the adapters (one composition root per runtime). */
export interface Deps {
  db: Database;
  blobs: BlobStore;
  /** Configured providers by provider id. */
  providers: ReadonlyMap<string, ImageProvider>;
  catalog: ModelCatalog;
  /** Turns whatever a provider answered into the PNG that is stored. */
  codec: ImageCodec;
  clock: Clock;
  rateLimiter: RateLimiter;
  queue: JobQueue;
  /** What happens to each generation, heard by whoever waits on it in any process (Redis pub/sub when configured). */
  events: GenerationEvents;
  webhooks: WebhookTransport;
  batchSettings: BatchSettings;
  ids: IdGenerator;
  logger: Logger;
  /** Source of seeds for requests that give none; injected so tests are repeatable. */
  randomSeed: () => number;
  /** What `GET /health/ready` asks: the database, storage and (when configured) Redis. */
  readiness: readonly ReadinessCheck[];
  /** Series served at `/metrics`; reports are dropped when METRICS_TOKEN is unset. */
  metrics: Metrics;
  /** Turns for receiving and decoding files sent in, per key and in all (FairGate). */
  uploadGates: UploadGates;
  /** `strip`: uploads lose their location, device and other metadata before they are stored (UPLOAD_METADATA). */
  uploadMetadata: 'strip' | 'keep';
}

export interface BatchSettings {
  maxPrompts: number;
  concurrency: number;
  /** Seconds before each delivery attempt: the first entry is the first attempt. */
  retryScheduleSeconds: readonly number[];
  /** `whsec_<base64>`; Standard Webhooks signing key. */
  webhookSecret: string;
  /** How often a worker queues again batch work left without a job (an outage, a stopped process). */
  sweepIntervalMs: number;
}

/** The API key a request came with: what it makes is charged to it, within its budgets (USD, null for none). */
export interface KeyContext {
  id: string;
  dailyBudgetUsd: number | null;
  monthlyBudgetUsd: number | null;
}

/** Who is asking; every query is scoped to `userId`. */
export interface RequestContext {
  userId: string;
  requestId: string;
  /** Aborts when the caller is gone (an HTTP client that hung up), so nobody waits on work no one will read. */
  signal?: AbortSignal;
  /** Absent in the IP allow-list mode and for work no key asked for. */
  key?: KeyContext;
}

export interface VerbArgs<I> {
  deps: Deps;
  ctx: RequestContext;
  input: I;
}
