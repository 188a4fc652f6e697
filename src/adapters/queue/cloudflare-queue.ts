import type { Kysely } from 'kysely';
import type { Clock } from '../../ports/clock.js';
import { JobHandedBack, type JobHandler, type JobQueue, type NewJob } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { DatabaseSchema } from '../db/schema.js';
import { createJobStore, queueStats, type ClaimedJob, type NewJobRow } from './job-store.js';
import { delaySecondsOf, isJobMessage, sendAll, type JobMessage, type MessageBatch, type QueueMessage, type QueueProducer } from './queue-messages.js';
import { checkRetryPolicy, DEFAULT_JOB_RETRY, retryDelayMs, type JobRetryPolicy } from './retry-policy.js';

export interface CloudflareQueueOptions {
  /** The service's database (D1 on Workers): the `jobs` table keeps each job, its uniqueness and its attempts. */
  db: Kysely<DatabaseSchema>;
  /** The Queue producer binding every job's message goes out on. */
  producer: QueueProducer;
  clock: Clock;
  logger: Logger;
  /** How long a claim holds without its consumer finishing: past it, another delivery may run the job (default 15 min). */
  leaseMs?: number;
  retry?: JobRetryPolicy;
  /** Bound values a statement may carry (D1: 100). */
  maxBoundParameters?: number;
}

/** A queue consumer invocation runs for at most 15 minutes: a claim that long outlives the run that took it, so no renewal is needed. */
export const DEFAULT_CLAIM_MS = 15 * 60_000;

/** The JobQueue, plus what the Worker's `queue()` export hands each batch to. */
export interface CloudflareJobQueue extends JobQueue {
  consume(batch: MessageBatch): Promise<void>;
  /**
   * Sends again a message for every job claimable now (due and unclaimed, or claimed by a consumer whose claim ran
   * out), at most `limit`: Queues deliver what they accepted, but a message can still be lost to a consumer that
   * died past its retries, or with `wrangler dev`'s in-memory queues on a kill. A job that already has a message
   * gets a duplicate, which the claim makes harmless. The Worker's Cron Trigger calls it. Returns how many were sent.
   */
  redeliver(limit?: number): Promise<number>;
}

interface Worker {
  concurrency: number;
  handler: JobHandler;
  running: number;
  /** Messages waiting for a slot, in arrival order: a slot passes straight to the next. */
  waiting: (() => void)[];
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The JobQueue for Cloudflare Workers, where nothing polls: a Queue pushes batches of messages to `consume`. The job
 * itself is a row of the `jobs` table, as with the database queue; a message only says "job X may be due", so a
 * duplicate, early or stale message (Queues deliver at least once) is told apart by the row and costs one read.
 *
 * Retries: a handler's throw is recorded on the row and the message is retried with the policy's backoff. Cloudflare
 * counts those retries too: the consumer's `max_retries` (wrangler config; default 3) must be at least the policy's
 * attempts, plus room for crashes, or Cloudflare gives the message up while its row still waits. A message it gives
 * up (a consumer that crashed again and again: out of memory, a deploy) goes to the consumer's `dead_letter_queue`,
 * or is lost without one; its job stays in the table (stats count it), and the batch sweeper's revival, or a consumer
 * of the DLQ sending it anew, puts it back.
 */
export function createCloudflareQueue(options: CloudflareQueueOptions): CloudflareJobQueue {
  const { clock, logger, producer } = options;
  const store = createJobStore(options.db, 'sqlite', { maxBoundParameters: options.maxBoundParameters ?? 100 });
  const retry = checkRetryPolicy(options.retry ?? DEFAULT_JOB_RETRY);
  const claimMs = options.leaseMs ?? DEFAULT_CLAIM_MS;
  const workers = new Map<string, Worker>();
  const consuming = new Set<Promise<void>>();
  // One per consume call: workerd lets a signal be used only by the invocation (request) that made it.
  const closings = new Set<AbortController>();
  let closed = false;
  const now = () => clock.now().toISOString();
  const msUntil = (iso: string) => Date.parse(iso) - clock.now().getTime();

  async function acquire(worker: Worker): Promise<void> {
    if (worker.running < worker.concurrency) worker.running += 1;
    else await new Promise<void>((resolve) => worker.waiting.push(resolve));
  }
  const release = (worker: Worker) => {
    const next = worker.waiting.shift();
    if (next === undefined) worker.running -= 1;
    else next();
  };

  /** A message whose job could not be claimed: it says nothing new (ack), or comes back when the job may be claimable. */
  async function settleUnclaimed(message: QueueMessage, body: JobMessage): Promise<void> {
    const job = await store.peek(body.id);
    if (job === undefined || job.status === 'failed') return message.ack();
    if (job.status === 'running') {
      // Another delivery holds it (a duplicate of this message): left alone. Seen again after that claim would end, in case its consumer died.
      return message.retry({ delaySeconds: delaySecondsOf(job.lockedUntil === null ? 0 : msUntil(job.lockedUntil)) });
    }
    // Early: a job due past the 12 h cap, or a stale message of a job retried since. A fresh message, as a retry would count against max_retries.
    await producer.sendBatch([{ body, delaySeconds: delaySecondsOf(msUntil(job.runAt)) }]);
    message.ack();
  }

  async function run(message: QueueMessage, queue: string, worker: Worker, job: ClaimedJob, closing: AbortController): Promise<void> {
    const fields = { queue, jobId: job.id, attempt: job.attempts, attempts: retry.attempts };
    try {
      await worker.handler(job.payload, {
        attempt: job.attempts,
        lastAttempt: job.attempts >= retry.attempts,
        closing: closing.signal,
        ...(job.headers === undefined ? {} : { headers: job.headers }),
      });
    } catch (error) {
      if (error instanceof JobHandedBack) {
        await store.giveBack(job, now());
        return message.retry({ delaySeconds: 0 });
      }
      const err = messageOf(error);
      if (job.attempts >= retry.attempts) {
        logger.error({ ...fields, err }, 'job failed for good; it runs again only if queued again');
        await store.fail(job, err, now());
        return message.ack();
      }
      const delayMs = retryDelayMs(retry, job.attempts);
      logger.warn({ ...fields, err, retryInMs: delayMs }, 'job failed; it will be retried after a backoff');
      // A write that finds the claim gone (another delivery took the job after it ran out) changes nothing: that delivery owns the job.
      if (await store.retry(job, err, new Date(clock.now().getTime() + delayMs).toISOString(), now()))
        return message.retry({ delaySeconds: delaySecondsOf(delayMs) });
      return message.ack();
    }
    await store.complete(job);
    message.ack();
  }

  async function deliver(message: QueueMessage, closing: AbortController): Promise<void> {
    const body = message.body;
    if (!isJobMessage(body)) {
      logger.error({ messageId: message.id }, 'a queue message that names no job; dropped');
      return message.ack();
    }
    const worker = workers.get(body.queue);
    if (worker === undefined || closed) return message.retry({ delaySeconds: 0 });
    // The slot first, the claim after: a job waiting for a slot is still waiting (stats), and still anyone's to take.
    await acquire(worker);
    try {
      if (closed) return message.retry({ delaySeconds: 0 });
      // A message is its queue's ticket: it runs the job first in line (priority, then due time), which is its own
      // job or one whose message is still on its way (that message then finds the next, or nothing and is acked).
      // So Workers serve jobs in priority order too, however Queues order their messages. An early message claims
      // nothing: its job would otherwise lose the one message that comes back for it when it is due.
      const job = await store.claim(body.queue, crypto.randomUUID(), now(), new Date(clock.now().getTime() + claimMs).toISOString(), body.id);
      if (job === undefined) return await settleUnclaimed(message, body);
      await run(message, body.queue, worker, job, closing);
    } catch (error) {
      // The database went away: the message comes back by the consumer's retry_delay; a claim taken holds it till then or runs out.
      logger.error({ queue: body.queue, jobId: body.id, err: messageOf(error) }, 'could not run a job message; it will be delivered again');
      message.retry();
    } finally {
      release(worker);
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
    const due = new Map(jobs.map((job) => [job.options.id, job.options.runAt]));
    const added = [
      ...(await store.insert(jobs.filter((job) => job.options.reviveFailed !== true).map(row), false)),
      ...(await store.insert(jobs.filter((job) => job.options.reviveFailed === true).map(row), true)),
    ];
    const messages = added.map((id) => {
      const runAt = due.get(id);
      return runAt === undefined ? { body: { queue, id } } : { body: { queue, id }, delaySeconds: delaySecondsOf(runAt.getTime() - clock.now().getTime()) };
    });
    const failed = await sendAll(producer, messages);
    if (failed === undefined) return;
    // A job without a message would never run, and its id would block the caller's retry: taken out again (a revived one too; the sweeper adds it anew).
    await store.withdraw(failed.unsent);
    throw failed.error;
  }

  return {
    enqueue: (queue, payload, options) => enqueueAll(queue, [{ payload, options }]),
    enqueueAll,
    process(queue, concurrency, handler) {
      workers.set(queue, { concurrency, handler, running: 0, waiting: [] });
    },
    stats: (queues) => queueStats(store, queues, clock.now()),
    async redeliver(limit = 1_000) {
      const jobs = await store.claimableJobs(now(), limit);
      const failed = await sendAll(
        producer,
        jobs.map(({ id, queue }) => ({ body: { queue, id } })),
      );
      if (failed !== undefined) throw failed.error;
      if (jobs.length > 0) logger.info({ jobs: jobs.length }, 'queue messages sent again for jobs that had none running');
      return jobs.length;
    },
    consume(batch) {
      const closing = new AbortController();
      if (closed) closing.abort();
      closings.add(closing);
      const done: Promise<void> = Promise.all(batch.messages.map((message) => deliver(message, closing))).then(() => undefined);
      consuming.add(done);
      return done.finally(() => {
        consuming.delete(done);
        closings.delete(closing);
      });
    },
    async drain() {
      while (consuming.size > 0) await Promise.allSettled([...consuming]);
    },
    async close() {
      closed = true;
      for (const closing of closings) closing.abort();
      while (consuming.size > 0) await Promise.allSettled([...consuming]);
    },
  };
}
