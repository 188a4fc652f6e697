import type { Metrics } from '../../ports/metrics.js';

/** When nobody scrapes (METRICS_TOKEN unset): every report is dropped, nothing is kept or timed. */
export function createNoMetrics(): Metrics {
  const ignore = (): void => undefined;
  return {
    httpRequest: ignore,
    generation: ignore,
    costSettled: ignore,
    budgetRefused: ignore,
    webhookDelivery: ignore,
    rateLimitRefused: ignore,
    circuitState: ignore,
    queues: ignore,
    onScrape: ignore,
    scrape: async () => ({ contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' }),
  };
}
