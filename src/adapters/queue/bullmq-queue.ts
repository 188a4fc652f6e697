import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Queue, WaitingError, Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { systemClock, type Clock } from '../../ports/clock.js';
import { JobHandedBack, type JobHandler, type JobQueue, type NewJob } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { translateRedisError } from './redis-errors.js';
import { checkRetryPolicy, DEFAULT_JOB_RETRY, type JobRetryPolicy } from './retry-policy.js';

export interface BullmqQueueOptions {
  /** A `redis://` (or `rediss://`) URL, or ioredis options. */
  connection: string | RedisOptions;
  /** Namespaces every key this queue writes (`REDIS_PREFIX`). */
  prefix: string;
  logger: Logger;
  /**
   * The clock the domain computes `runAt` from. With the system clock (the default) BullMQ's own timers
   * release delayed jobs; with any other (a test clock) a delayed job waits for that clock to pass its
   * `runAt`, checked every `pollMs`, whatever real time does.
   */
  clock?: Clock;
  /** How often to look for delayed jobs that a non-system clock has made due (default 250 ms). */
  pollMs?: number;
  /** How long a running job's lock lasts without renewal (renewed every half of it). */
  lockDurationMs?: number;
  /** How often each worker looks for jobs whose lock lapsed (their worker died). */
  stalledIntervalMs?: number;
  /** How long `close` waits for running jobs before handing them back to the queue. */
  closeTimeoutMs?: number;
  /** How often, and how far apart, a job whose handler threw runs again (BullMQ's exponential backoff). */
  retry?: JobRetryPolicy;
}

/**
 * A job whose worker died is run again once its lock has lapsed and a stall check has seen it twice:
 * at most about lockDuration + stalledInterval after the death, so within ~20 s with these defaults.
 * A shorter lock would be renewed more often and lost by a process whose event loop stalls for half of it.
 */
export const DEFAULT_LOCK_DURATION_MS = 15_000;
export const DEFAULT_STALLED_INTERVAL_MS = 5_000;
/** Under the 30 s that container orchestrators commonly allow between SIGTERM and SIGKILL. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 25_000;
/** A job recovered this often from dead workers is probably what kills them: it fails instead. */
const MAX_STALLED_COUNT = 2;
/** Failed jobs are kept for inspection (and keep their id taken, as in the database queue), within bounds. */
const KEEP_FAILED = { count: 1000, age: 7 * 24 * 3600 };
const DRAIN_POLL_MS = 20;
/**
 * The port's priority (lower first, 0 the default) as BullMQ's: 0 is its "none", whose jobs go before every prioritized
 * one, FIFO; 1..2^21-1 are its priorities, FIFO among equals (larger ones are capped, so FIFO after the rest).
 */
const bullmqPriority = (priority: number | undefined): number => (priority === undefined || priority <= 0 ? 0 : Math.min(Math.trunc(priority), 2 ** 21 - 1));
/** Prioritized jobs read for the oldest wait (stats): in a fair queue each key's oldest job is its next, near the front. */
const PRIORITIZED_SCANNED = 200;
/** BullMQ's delay for a job that waits for a non-system clock: longer than any test, within its score range. */
const HELD_MS = 365 * 24 * 3600_000;

/** What a BullMQ job carries: the payload, and when it may run by the queue's clock (ms, or null for now). */
interface JobData {
  payload: Record<string, unknown>;
  runAt: number | null;
  /** Carried beside the payload (trace context); absent when none, and in jobs of versions before it. */
  headers?: Record<string, string>;
  /** When it was enqueued, by the queue's clock (ms); absent on jobs written by earlier versions. */
  enqueuedAt?: number;
}

/** Since when a job could run, by the queue's clock (BullMQ's own timestamp, in real time, for jobs of earlier versions). */
const dueSince = (job: Job<JobData>): number => job.data.runAt ?? job.data.enqueuedAt ?? job.timestamp + (job.delay ?? 0);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
/** Redis failing under an enqueue, said as the port says it: work that enqueues (a generation's run) runs again rather than failing. */
const translated = (error: unknown): never => {
  throw translateRedisError(error);
};

/**
 * The JobQueue on Redis through BullMQ, for several worker processes: one BullMQ queue per job kind,
 * `jobId` deduplicates while the job exists, a job whose handler threw (the database or storage was
 * away) runs again with exponential backoff, and a job whose worker died is recovered by another
 * worker's stall check. Retries of a webhook the receiver refused are the domain's, as new jobs.
 */
export function createBullmqQueue(options: BullmqQueueOptions): JobQueue {
  const { logger, prefix } = options;
  const clock = options.clock ?? systemClock;
  const followsRealTime = clock === systemClock;
  const lockDuration = options.lockDurationMs ?? DEFAULT_LOCK_DURATION_MS;
  const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_JOB_RETRY);
  const connect = (extra: RedisOptions): Redis => {
    const client = typeof options.connection === 'string' ? new Redis(options.connection, extra) : new Redis({ ...options.connection, ...extra });
    client.on('error', (error: unknown) => logger.warn({ err: messageOf(error) }, 'redis connection error (the client reconnects)'));
    return client;
  };
  // Enqueueing (from an HTTP request) fails after a few retries while Redis is away, rather than hanging.
  const producer = connect({ maxRetriesPerRequest: 3 });
  // Workers block on Redis; BullMQ requires unlimited retries there and duplicates this client per worker.
  const consumer = connect({ maxRetriesPerRequest: null, lazyConnect: true });
  // Stored on every job this process takes (`processedBy`), so `drain` can tell its own running jobs.
  const workerName = `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const queues = new Map<string, Queue<JobData>>();
  const workers = new Map<string, Worker<JobData>>();
  const running = new Map<Job<JobData>, string | undefined>();
  /** Every run's `closing`: aborted once the workers are paused at shutdown. */
  const stopping = new AbortController();
  let closing: Promise<void> | undefined;
  let poller: NodeJS.Timeout | undefined;

  const queueFor = (name: string): Queue<JobData> => {
    let queue = queues.get(name);
    if (queue === undefined) {
      queue = new Queue<JobData>(name, { connection: producer, prefix });
      queue.on('error', (error) => logger.error({ queue: name, err: messageOf(error) }, 'job queue error'));
      queues.set(name, queue);
    }
    return queue;
  };

  /** With a non-system clock: makes due now the held jobs whose `runAt` that clock has passed. */
  async function releaseDue(): Promise<void> {
    if (followsRealTime) return;
    const now = clock.now().getTime();
    for (const name of workers.keys()) {
      for (const job of await queueFor(name).getDelayed()) {
        // Another process may have released it first: then it is no longer delayed, and that is fine.
        if (job.data.runAt !== null && job.data.runAt <= now) await job.promote().catch(() => undefined);
      }
    }
  }

  /** No job of a processed queue is due or running in this process; read along a job's path (delayed, waiting, active) so none slips between reads. */
  async function idle(): Promise<boolean> {
    for (const name of workers.keys()) {
      const queue = queueFor(name);
      if ((await queue.getDelayedCount(Date.now() + 1)) > 0) return false;
      if ((await queue.getWaitingCount()) > 0 || (await queue.getPrioritizedCount()) > 0) return false;
      const active = await queue.getActive();
      if (active.some((job) => job.processedBy === workerName)) return false;
    }
    return running.size === 0;
  }

  /** Waits for running handlers up to the time limit; true when none is left. */
  async function settle(deadline: number): Promise<boolean> {
    while (running.size > 0 && Date.now() < deadline) await sleep(DRAIN_POLL_MS);
    return running.size === 0;
  }

  /** Puts jobs whose handler did not finish in time back in the queue, so another worker starts them now instead of after their lock lapses. */
  async function handBack(): Promise<void> {
    for (const [job, token] of running) {
      try {
        await job.moveToWait(token);
        logger.warn({ queue: job.queueName, jobId: job.id }, 'job still running at shutdown handed back to the queue');
      } catch (error) {
        logger.warn(
          { queue: job.queueName, jobId: job.id, err: messageOf(error) },
          'could not hand a job back at shutdown; it runs again once its lock lapses',
        );
      }
    }
  }

  /**
   * Delayed jobs whose time has come but that no worker has moved on yet (none runs, or it has not looked): they wait
   * too. Real-time delays are ordered by due time, so counting and the earliest are cheap; held jobs (another clock) are read.
   */
  async function dueDelayed(queue: Queue<JobData>, now: number): Promise<{ count: number; earliest: number | undefined }> {
    if (followsRealTime) {
      const [count, [first]] = await Promise.all([queue.getDelayedCount(now + 1), queue.getDelayed(0, 0)]);
      return { count, earliest: count > 0 && first !== undefined ? dueSince(first) : undefined };
    }
    const due = (await queue.getDelayed()).map(dueSince).filter((at) => at <= now);
    return { count: due.length, earliest: due.length > 0 ? Math.min(...due) : undefined };
  }

  /** The prioritized jobs, and since when the longest-waiting of the first PRIORITIZED_SCANNED has been due. */
  async function oldestPrioritized(queue: Queue<JobData>): Promise<{ count: number; earliest: number | undefined }> {
    const count = await queue.getPrioritizedCount();
    if (count === 0) return { count, earliest: undefined };
    const due = (await queue.getPrioritized(0, PRIORITIZED_SCANNED - 1)).map(dueSince);
    return { count, earliest: due.length > 0 ? Math.min(...due) : undefined };
  }

  async function shutDown(): Promise<void> {
    if (poller !== undefined) clearInterval(poller);
    const all = [...workers.values()];
    await Promise.all(all.map((worker) => worker.pause(true)));
    stopping.abort();
    const finished = await settle(Date.now() + closeTimeoutMs);
    // Past a lock's duration the stall check recovers the jobs anyway (Redis may be out of reach).
    if (!finished) await Promise.race([handBack(), sleep(lockDuration)]);
    // Graceful when every handler finished, so their completions are written; forced otherwise.
    await Promise.all(all.map((worker) => worker.close(!finished)));
    await Promise.all([...queues.values()].map((queue) => queue.close()));
    producer.disconnect();
    consumer.disconnect();
  }

  /** Runs again a job that failed for good; another process reviving it at the same time is as good. */
  async function revive(job: Job<JobData>): Promise<void> {
    if (!(await job.isFailed())) return;
    try {
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      logger.warn({ queue: job.queueName, jobId: job.id, failedReason: job.failedReason }, 'queued again a job that had failed for good');
    } catch (error) {
      if (await job.isFailed()) throw error;
    }
  }

  /** One `addBulk` for all: an existing id gives back the existing job, unchanged (failed stays failed unless revived). */
  async function enqueueAll(queue: string, jobs: readonly NewJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = clock.now().getTime();
    const added = await queueFor(queue).addBulk(
      jobs.map(({ payload, options: { id, runAt, headers, priority } }) => {
        const wait = runAt === undefined ? 0 : runAt.getTime() - now;
        const delay = wait <= 0 ? 0 : followsRealTime ? wait : HELD_MS;
        const data: JobData = {
          payload,
          runAt: runAt?.getTime() ?? null,
          enqueuedAt: now,
          ...(headers === undefined || Object.keys(headers).length === 0 ? {} : { headers: { ...headers } }),
        };
        const opts = {
          jobId: id,
          delay,
          priority: bullmqPriority(priority),
          attempts: retry.attempts,
          backoff: { type: 'exponential', delay: retry.backoffMs },
        };
        return { name: queue, data, opts: { ...opts, removeOnComplete: true, removeOnFail: KEEP_FAILED } };
      }),
    );
    for (const [index, job] of added.entries()) if (jobs[index]?.options.reviveFailed === true) await revive(job);
  }

  return {
    enqueue: (queue, payload, options) => enqueueAll(queue, [{ payload, options }]).catch(translated),
    enqueueAll: (queue, jobs) => enqueueAll(queue, jobs).catch(translated),
    process(queue, concurrency, handler: JobHandler) {
      if (workers.has(queue)) throw new Error(`already processing queue ${queue}`);
      const worker = new Worker<JobData>(
        queue,
        async (job, token) => {
          // A job some other writer left in our keys fails loudly rather than reach the handler as undefined.
          if (typeof job.data.payload !== 'object' || job.data.payload === null) throw new Error('not an imagegate job: its data has no payload');
          running.set(job, token);
          try {
            const attempt = job.attemptsMade + 1;
            const { headers } = job.data;
            await handler(job.data.payload, {
              attempt,
              lastAttempt: attempt >= (job.opts.attempts ?? 1),
              closing: stopping.signal,
              ...(headers === undefined ? {} : { headers }),
            });
          } catch (error) {
            if (!(error instanceof JobHandedBack)) throw error;
            // Not begun: back to the wait list, its attempts as they were; WaitingError tells BullMQ the job was moved, not failed.
            await job.moveToWait(token);
            throw new WaitingError();
          } finally {
            running.delete(job);
          }
        },
        {
          connection: consumer,
          prefix,
          name: workerName,
          concurrency,
          lockDuration,
          stalledInterval: options.stalledIntervalMs ?? DEFAULT_STALLED_INTERVAL_MS,
          maxStalledCount: MAX_STALLED_COUNT,
        },
      );
      worker.on('failed', (job, error) => {
        const attempts = job?.opts.attempts ?? 1;
        const attempt = job?.attemptsMade ?? attempts;
        if (attempt < attempts) logger.warn({ queue, jobId: job?.id, attempt, attempts, err: error.message }, 'job failed; it will be retried after a backoff');
        else logger.error({ queue, jobId: job?.id, attempt, attempts, err: error.message }, 'job failed for good; it runs again only if queued again');
      });
      worker.on('stalled', (jobId) => logger.warn({ queue, jobId }, 'job recovered from a worker that stopped; it runs again'));
      worker.on('error', (error) => logger.error({ queue, err: messageOf(error) }, 'job worker error'));
      workers.set(queue, worker);
      queueFor(queue);
      if (!followsRealTime && poller === undefined) {
        poller = setInterval(
          () => void releaseDue().catch((error: unknown) => logger.error({ err: messageOf(error) }, 'could not release due jobs')),
          options.pollMs ?? 250,
        );
        poller.unref();
      }
    },
    async stats(names) {
      const now = clock.now().getTime();
      return Promise.all(
        names.map(async (name) => {
          const queue = queueFor(name);
          // The wait list's far end is the job taken next, so the one waiting longest; prioritized jobs wait apart.
          const [waiting, [next], prioritized, delayed] = await Promise.all([
            queue.getWaitingCount(),
            queue.getWaiting(0, 0),
            oldestPrioritized(queue),
            dueDelayed(queue, now),
          ]);
          const since = [
            ...(waiting > 0 && next !== undefined ? [dueSince(next)] : []),
            ...[prioritized.earliest, delayed.earliest].filter((at) => at !== undefined),
          ];
          return {
            queue: name,
            waiting: waiting + prioritized.count + delayed.count,
            oldestWaitSeconds: since.length === 0 ? 0 : Math.max(0, (now - Math.min(...since)) / 1000),
          };
        }),
      );
    },
    async drain() {
      for (;;) {
        await releaseDue();
        if (await idle()) return;
        await sleep(DRAIN_POLL_MS);
      }
    },
    close() {
      closing ??= shutDown();
      return closing;
    },
  };
}
