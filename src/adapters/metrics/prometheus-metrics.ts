import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../../ports/logger.js';
import type { Metrics, WebhookOutcome } from '../../ports/metrics.js';

/** From a fast read to a slow generate answered in the same request (a remote provider may take up to PROVIDER_TIMEOUT_MS). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** Provider calls: the offline renderer in tens of milliseconds, remote models in seconds, a slow queue in minutes. */
const PROVIDER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];

/** The methods a route can have; anything else a client sends is one `other`, so it cannot add series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const CIRCUIT_VALUES = { closed: 0, 'half-open': 1, open: 2 } as const;

const WEBHOOK_OUTCOMES: readonly WebhookOutcome[] = ['delivered', 'retrying', 'failed', 'stopped'];

/**
 * Metrics in a registry of this runtime's own (never prom-client's global one, so several runtimes in one process,
 * as in the tests, never share or clash), with Node's and the process's default metrics beside them.
 */
export function createPrometheusMetrics(options: { logger: Logger }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'imagegate_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers,
  });
  const httpDuration = new Histogram({
    name: 'imagegate_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: HTTP_BUCKETS,
    registers,
  });
  const generations = new Counter({
    name: 'imagegate_generations_total',
    help: 'Provider calls by model, provider and how they ended.',
    labelNames: ['model', 'provider', 'outcome'],
    registers,
  });
  const providerDuration = new Histogram({
    name: 'imagegate_provider_duration_seconds',
    help: 'Time a provider call took, retries and waits included, whatever its outcome.',
    labelNames: ['model', 'provider'],
    buckets: PROVIDER_BUCKETS,
    registers,
  });
  const cost = new Counter({
    name: 'imagegate_cost_usd_total',
    help: 'US dollars of provider calls as settled in the charge ledger, by model.',
    labelNames: ['model'],
    registers,
  });
  const budgetRefusals = new Counter({
    name: 'imagegate_budget_refusals_total',
    help: 'Generations refused (402) because a key budget would be passed, by budget.',
    labelNames: ['budget'],
    registers,
  });
  const circuit = new Gauge({
    name: 'imagegate_provider_circuit_state',
    help: 'Breaker of each remote provider: 0 closed, 1 half-open, 2 open.',
    labelNames: ['provider'],
    registers,
  });
  const queueDepth = new Gauge({
    name: 'imagegate_queue_depth',
    help: 'Jobs due to run that no worker is running yet, by queue.',
    labelNames: ['queue'],
    registers,
  });
  const queueAge = new Gauge({
    name: 'imagegate_queue_oldest_job_age_seconds',
    help: 'Seconds since the longest-waiting due job of each queue became due (0 when none waits).',
    labelNames: ['queue'],
    registers,
  });
  const webhooks = new Counter({
    name: 'imagegate_webhook_deliveries_total',
    help: 'Webhook delivery attempts by what they led to.',
    labelNames: ['outcome'],
    registers,
  });
  const rateLimits = new Counter({
    name: 'imagegate_rate_limit_refusals_total',
    help: 'Requests answered 429, by limiter: key (per-key requests per minute) or failed_auth (failed authentications per address).',
    labelNames: ['limiter'],
    registers,
  });

  // Series of a fixed label set exist from the start at 0, so a rate or an alert on them has data before the first event.
  for (const budget of ['daily', 'monthly']) budgetRefusals.inc({ budget }, 0);
  for (const limiter of ['key', 'failed_auth']) rateLimits.inc({ limiter }, 0);
  for (const outcome of WEBHOOK_OUTCOMES) webhooks.inc({ outcome }, 0);

  const readers: (() => void | Promise<void>)[] = [];

  return {
    httpRequest({ method, route, status, seconds }) {
      const known = METHODS.has(method) ? method : 'other';
      httpRequests.inc({ method: known, route, status: String(status) });
      httpDuration.observe({ method: known, route }, seconds);
    },
    generation({ model, provider, outcome, seconds }) {
      generations.inc({ model, provider, outcome });
      providerDuration.observe({ model, provider }, seconds);
    },
    costSettled(model, usd) {
      // A counter only goes up; a settlement never lowers what was spent.
      cost.inc({ model }, Math.max(0, usd));
    },
    budgetRefused: (budget) => budgetRefusals.inc({ budget }),
    webhookDelivery: (outcome) => webhooks.inc({ outcome }),
    rateLimitRefused: (limiter) => rateLimits.inc({ limiter }),
    circuitState: (provider, state) => circuit.set({ provider }, CIRCUIT_VALUES[state]),
    queues(stats) {
      queueDepth.reset();
      queueAge.reset();
      for (const { queue, waiting, oldestWaitSeconds } of stats) {
        queueDepth.set({ queue }, waiting);
        queueAge.set({ queue }, oldestWaitSeconds);
      }
    },
    onScrape(read) {
      readers.push(read);
    },
    async scrape() {
      await Promise.all(
        readers.map(async (read) => {
          try {
            await read();
          } catch (error) {
            options.logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'could not read a metric for a scrape; the scrape goes on without it',
            );
          }
        }),
      );
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
