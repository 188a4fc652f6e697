import { Redis } from 'ioredis';
import type { Logger } from '../../ports/logger.js';
import { burstWarning } from '../support/burst-warning.js';

export interface RateLimitRedisOptions {
  url: string;
  /** The longest one command may wait for its answer (a link that drops packets never answers). */
  commandTimeoutMs: number;
  logger?: Logger;
}

/**
 * The connection for request-path commands (rate-limit counters, readiness): a request must never wait on
 * Redis. ioredis's defaults queue commands while disconnected and retry each 20 times, which held requests
 * for over a minute in an outage. Here a command fails at once while the client is not connected (no
 * offline queue), is sent again at most once after a reconnect, and gives up after `commandTimeoutMs`.
 * BullMQ's connections are not these: its workers need unlimited retries.
 */
export function createRateLimitRedisClient(options: RateLimitRedisOptions): Redis {
  const client = new Redis(options.url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(options.commandTimeoutMs, 2_000),
    // Keep trying to come back, but not faster than every 2 s: an outage must not become a reconnect storm.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
  });
  // Unheard, ioredis prints every failed reconnect; one warning per burst says the same.
  client.on(
    'error',
    burstWarning(options.logger, 'the Redis connection for rate limits failed; requests get 503 (or the in-memory fallback) until it is back'),
  );
  return client;
}

/** How long start-up waits for the rate-limit connection before serving anyway (requests then get the fallback). */
const REDIS_READY_WAIT_MS = 3_000;

/** Resolves once the client is connected, or after `timeoutMs` whatever it is doing: never rejects. */
export function waitUntilReady(client: Redis, timeoutMs = REDIS_READY_WAIT_MS): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once('ready', done);
  });
}
