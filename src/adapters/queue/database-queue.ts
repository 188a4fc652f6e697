import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../ports/clock.js';
import type { Database } from '../../ports/database.js';
import { JobHandedBack, type JobHandler, type JobQueue, type NewJob } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { DatabaseSchema } from '../db/schema.js';
import { createJobStore, queueStats, type ClaimedJob, type NewJobRow } from './job-store.js';
import { checkRetryPolicy, DEFAULT_JOB_RETRY, retryDelayMs, type JobRetryPolicy } from './retry-policy.js';

export interface DatabaseQueueOptions {
  db: Kysely<DatabaseSchema>;
  clock: Clock;
  logger: Logger;
  /** How often to look for due jobs (delayed ones, ones another process added, ones whose lease ran out). */
  pollMs?: number;
  /** Which SQL claims a job (SKIP LOCKED on PostgreSQL); said by whoever opened the database, never guessed. */
  dialect: Database['dialect'];
  /** How long a claimed job stays its worker's without a renewal, in clock time (default 30 s). */
  leaseMs?: number;
  /** How often a worker renews the leases of the jobs it runs, in real time (default a third of the lease). */
  renewEveryMs?: number;
  /**
   * This process is the database's only worker, so at start it queues again every job left running
   * instead of waiting out their leases. Default: true on SQLite (the embedded mode locks its data
   * folder to one process), false on PostgreSQL (where it would take live workers' jobs).
   */
  exclusive?: boolean;
  /** On close, hand running jobs back to the queue after this long instead of waiting for them (default: wait). */
  handBackAfterMs?: number;
  /** How often, and how far apart in clock time, a job whose handler threw runs again. */
  retry?: JobRetryPolicy;
}

export const DEFAULT_LEASE_MS = 30_000;

interface Worker {
  concurrency: number;
  handler: JobHandler;
  running: number;
  /** Settles once the queue may be claimed from: after the take-over at start, in exclusive mode. */
  ready: Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The JobQueue in the service's own database: jobs are rows, so they survive a kill -9. Several worker
 * processes may share it on PostgreSQL. A claimed job is leased to its worker, which renews the lease
 * while the handler runs; when a worker dies its leases run out and any worker claims those jobs again.
 * Jobs run at least once: a worker that stalls longer than its lease may see its job run elsewhere too.
 */
export function createDatabaseQueue(options: DatabaseQueueOptions): JobQueue {
  const { db, clock, logger, dialect } = options;
  const exclusive = options.exclusive ?? dialect === 'sqlite';
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? Math.max(1, Math.floor(leaseMs / 3));
  if (!(leaseMs > 0 && renewEveryMs > 0 && renewEveryMs < leaseMs))
    throw new Error(`a job lease (${leaseMs} ms) must be positive and longer than its renewal period (${renewEveryMs} ms)`);
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_JOB_RETRY);
  const store = createJobStore(db, dialect);
  const workers = new Map<string, Worker>();
  /** The claims this process holds, by token, while their handlers run. */
  const held = new Map<string, ClaimedJob & { queue: string }>();
  const inFlight = new Set<Promise<void>>();
  /** Every run's `closing`: aborted when close begins, after claiming stopped. */
  const closing = new AbortController();
  let closed = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let renewing = false;

  const now = () => clock.now().toISOString();
  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs).toISOString();

  async function renewLeases(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    try {
      const tokens = [...held.keys()];
      const kept = await store.renew(tokens, leaseEnd());
      for (const token of tokens) {
        const job = held.get(token);
        if (kept.has(token) || job === undefined) continue;
        // Still running here, but no longer ours: another worker may run it again (handlers are idempotent).
        logger.warn({ queue: job.queue, jobId: job.id }, 'lost the lease of a running job; another worker may run it too');
        held.delete(token);
      }
    } catch (error) {
      logger.error({ err: messageOf(error) }, 'could not renew job leases');
    } finally {
      renewing = false;
    }
  }

  async function runJob(queue: string, worker: Worker, job: ClaimedJob): Promise<void> {
    held.set(job.token, { ...job, queue });
    try {
      await worker.handler(job.payload, {
        attempt: job.attempts,
        lastAttempt: job.attempts >= retry.attempts,
        closing: closing.signal,
        ...(job.headers === undefined ? {} : { headers: job.headers }),
      });
      held.delete(job.token);
      await store.complete(job);
    } catch (error) {
      held.delete(job.token);
      if (error instanceof JobHandedBack) {
        // Not begun: queued again as it was, due now, for whichever worker is up next; if this write fails, its lease runs out.
        await store.giveBack(job, now());
        return;
      }
      const message = messageOf(error);
      const fields = { queue, jobId: job.id, attempt: job.attempts, attempts: retry.attempts, err: message };
      if (job.attempts >= retry.attempts) {
        logger.error(fields, 'job failed for good; it runs again only if queued again');
        await store.fail(job, message, now());
        return;
      }
      // If this write fails too (the database is still away), the lease runs out and the job is claimed again.
      const delayMs = retryDelayMs(retry, job.attempts);
      logger.warn({ ...fields, retryInMs: delayMs }, 'job failed; it will be retried after a backoff');
      await store.retry(job, message, new Date(clock.now().getTime() + delayMs).toISOString(), now());
    }
  }

  async function pump(queue: string): Promise<void> {
    const worker = workers.get(queue);
    if (worker === undefined) return;
    await worker.ready;
    while (!closed && worker.running < worker.concurrency) {
      worker.running += 1;
      let job: ClaimedJob | undefined;
      try {
        job = await store.claim(queue, randomUUID(), now(), leaseEnd());
      } catch (error) {
        worker.running -= 1;
        logger.error({ queue, err: messageOf(error) }, 'could not claim a job');
        return;
      }
      if (job === undefined) {
        worker.running -= 1;
        return;
      }
      const running = runJob(queue, worker, job)
        .catch((error: unknown) => logger.error({ queue, jobId: job.id, err: messageOf(error) }, 'could not record the outcome of a job; it will run again'))
        .finally(() => {
          worker.running -= 1;
          inFlight.delete(running);
          void pump(queue);
        });
      inFlight.add(running);
    }
  }

  const pumpAll = () => Promise.all([...workers.keys()].map((queue) => pump(queue)));

  /** In exclusive mode, queues again what a stopped process left running, before this one claims anything (or it would take back its own jobs). */
  async function takeOver(queue: string): Promise<void> {
    if (!exclusive) return;
    try {
      await store.takeOver(queue, now());
    } catch (error) {
      logger.error({ queue, err: messageOf(error) }, 'could not queue again the jobs a stopped process left running');
    }
  }

  async function enqueueAll(queue: string, jobs: readonly NewJob[]): Promise<void> {
    const at = now();
    const row = ({ payload, options: { id, runAt, headers, priority } }: NewJob): NewJobRow => ({
      id,
      queue,
      payload,
      runAt: runAt?.toISOString() ?? at,
      now: at,
      headers,
      priority,
    });
    await store.insert(jobs.filter((job) => job.options.reviveFailed !== true).map(row), false);
    await store.insert(jobs.filter((job) => job.options.reviveFailed === true).map(row), true);
    void pump(queue);
  }

  return {
    enqueue: (queue, payload, options) => enqueueAll(queue, [{ payload, options }]),
    enqueueAll,
    process(queue, concurrency, handler) {
      workers.set(queue, { concurrency, handler, running: 0, ready: takeOver(queue) });
      void pump(queue);
      if (pollTimer === undefined) {
        pollTimer = setInterval(() => void pumpAll(), options.pollMs ?? 250);
        pollTimer.unref();
        renewTimer = setInterval(() => void renewLeases(), renewEveryMs);
        renewTimer.unref();
      }
    },
    stats: (queues) => queueStats(store, queues, clock.now()),
    async drain() {
      for (;;) {
        await pumpAll();
        const claimable = await store.countClaimable([...workers.keys()], now());
        // Read after the count: a claim under way (its job no longer claimable, its run not yet in flight) is waited for too.
        if (claimable === 0 && inFlight.size === 0 && [...workers.values()].every((worker) => worker.running === 0)) return;
        await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 10))]);
      }
    },
    async close() {
      closed = true;
      clearInterval(pollTimer);
      closing.abort();
      const finished = Promise.allSettled([...inFlight]).then(() => true);
      let waited = true;
      if (options.handBackAfterMs === undefined) await finished;
      else {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), options.handBackAfterMs);
        });
        waited = await Promise.race([finished, grace]);
        clearTimeout(timer);
      }
      if (!waited) {
        const tokens = [...held.keys()];
        held.clear();
        try {
          const count = await store.handBack(tokens, now());
          logger.warn({ count }, 'handed running jobs back to the queue at shutdown');
        } catch (error) {
          logger.error({ err: messageOf(error) }, 'could not hand running jobs back; their leases will run out');
        }
      }
      clearInterval(renewTimer);
    },
  };
}
