import type { KyselyDatabase } from '../../adapters/db/kysely-database.js';
import { createBullmqQueue } from '../../adapters/queue/bullmq-queue.js';
import { createDatabaseQueue } from '../../adapters/queue/database-queue.js';
import type { JobRetryPolicy } from '../../adapters/queue/retry-policy.js';
import type { Config } from '../../config/config.js';
import type { Clock } from '../../ports/clock.js';
import type { JobQueue } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';

/** Shorter than the processes' shutdown deadline (25 s), so unfinished jobs go back before a forced exit. */
const HAND_BACK_AFTER_MS = 20_000;

/** BullMQ when Redis is configured; otherwise jobs are rows in the database (shared safely on PostgreSQL). */
export function openQueue(config: Config, db: KyselyDatabase, clock: Clock, logger: Logger, tuning: { pollMs?: number; retry?: JobRetryPolicy }): JobQueue {
  const { pollMs, retry } = tuning;
  if (config.redis !== undefined) return createBullmqQueue({ connection: config.redis.url, prefix: config.redis.prefix, logger, clock, pollMs, retry });
  // Jobs still running at the shutdown deadline are handed back rather than left to wait out their lease.
  return createDatabaseQueue({ db: db.kysely, dialect: db.dialect, clock, logger, pollMs, handBackAfterMs: HAND_BACK_AFTER_MS, retry });
}
