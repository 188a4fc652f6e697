import { createNoMetrics } from '../../adapters/metrics/no-metrics.js';
import { createPrometheusMetrics } from '../../adapters/metrics/prometheus-metrics.js';
import type { Config } from '../../config/config.js';
import { JOB_KINDS } from '../../domain/jobs.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { Metrics } from '../../ports/metrics.js';

/** Prometheus series when someone may scrape them (METRICS_TOKEN set); otherwise nothing is recorded. */
export function openMetrics(config: Config, logger: Logger): Metrics {
  return config.metrics.token === undefined ? createNoMetrics() : createPrometheusMetrics({ logger });
}

/** A scrape waits this long at most for the queues' backlog, well within Prometheus' default scrape timeout (10 s). */
const QUEUE_STATS_TIMEOUT_MS = 3_000;

/** Every job queue's backlog, read at each scrape; when it cannot be read in time, the queue series are left out rather than stale. */
export function reportQueues(metrics: Metrics, queue: JobQueue): void {
  metrics.onScrape(async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the job queues did not answer within ${QUEUE_STATS_TIMEOUT_MS} ms`)), QUEUE_STATS_TIMEOUT_MS);
    });
    try {
      metrics.queues(await Promise.race([queue.stats(Object.keys(JOB_KINDS)), timeout]));
    } catch (error) {
      metrics.queues([]);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  });
}
