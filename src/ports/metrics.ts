import type { QueueStats } from './job-queue.js';

/**
 * What the service reports about itself, in its own words: the domain and the HTTP layer say what happened, an
 * adapter turns it into series (Prometheus, or nothing). Every label value is drawn from a bounded set (model
 * and provider ids, route templates, outcomes): never an image or key id, a prompt or a secret.
 */
export interface Metrics {
  /** One answered HTTP request; `route` is the matched route's template (`/api/images/:id`), or `unmatched`. */
  httpRequest(request: { method: string; route: string; status: number; seconds: number }): void;
  /** One call to a provider, however it ended, and how long the provider took (retries and waits included). */
  generation(call: { model: string; provider: string; outcome: GenerationOutcome; seconds: number }): void;
  /** Dollars a provider call was settled at in the ledger (0 for free models and calls not charged). */
  costSettled(model: string, usd: number): void;
  /** A generation refused before the provider was called, because the key's budget would be passed. */
  budgetRefused(budget: 'daily' | 'monthly'): void;
  /** One webhook delivery attempt and what it led to. */
  webhookDelivery(outcome: WebhookOutcome): void;
  /** A request answered 429: by the key's per-minute limit (`key`) or the failed-authentication limit per address (`failed_auth`). */
  rateLimitRefused(limiter: 'key' | 'failed_auth'): void;
  /** The breaker of a remote provider, as it is now. */
  circuitState(provider: string, state: 'closed' | 'half-open' | 'open'): void;
  /** Every job queue as it is now; a queue not listed (its stats could not be read) has no series until it is. */
  queues(stats: readonly QueueStats[]): void;
  /**
   * Runs before every scrape, so gauges read from elsewhere (queues, breakers) are current when scraped rather
   * than polled in the background. A reader that throws leaves the others and the scrape unaffected.
   */
  onScrape(read: () => void | Promise<void>): void;
  /** The current values in the Prometheus text exposition format, and the Content-Type to serve them with. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * How a provider call ended: `succeeded` (an image was stored), `refused` (the provider said no to this request),
 * `uncertain` (the answer was lost: it may have been made and billed), `abandoned` (an accepted job given up at the
 * deadline, billed without an image), `unavailable` (down, slow, or behind an open breaker: nothing was made),
 * `cancelled` (the caller left), `failed` (anything else, including the image not being stored).
 */
export type GenerationOutcome = 'succeeded' | 'refused' | 'uncertain' | 'abandoned' | 'unavailable' | 'cancelled' | 'failed';

/** `retrying`: the receiver did not take it and another attempt is scheduled; `failed`: the schedule ran out; `stopped`: it answered 410. */
export type WebhookOutcome = 'delivered' | 'retrying' | 'failed' | 'stopped';
