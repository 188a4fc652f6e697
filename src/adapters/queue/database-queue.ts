import type { Kysely } from 'kysely';
import type { Logger } from '../../ports/logger.js';
import type { Clock } from '../../ports/clock.js';
import type { JobHandler, JobQueue } from '../../ports/job-queue.js';
import { toNumber } from '../db/rows.js';
import type { DatabaseSchema } from '../db/schema.js';

export interface DatabaseQueueOptions {
  db: Kysely<DatabaseSchema>;
  clock: Clock;
  logger: Logger;
  /** How often to look for due jobs (delayed ones, or ones another process added). */
  pollMs?: number;
}

interface Worker {
  concurrency: number;
  handler: JobHandler;
  running: number;
}

/**
 * The embedded JobQueue: jobs are rows in the service's own database, so they survive a kill -9.
 * It assumes one worker process per database: on start, jobs left `running` by a dead process are queued again.
 */
export function createDatabaseQueue(options: DatabaseQueueOptions): JobQueue {
  const { db, clock, logger } = options;
  const workers = new Map<string, Worker>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const now = () => clock.now().toISOString();

  async function claim(queue: string): Promise<{ id: string; payload: Record<string, unknown> } | undefined> {
    return db.transaction().execute(async (trx) => {
      const job = await trx
        .selectFrom('jobs')
        .select(['id', 'payload'])
        .where('queue', '=', queue)
        .where('status', '=', 'queued')
        .where('run_at', '<=', now())
        .orderBy('run_at')
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (job === undefined) return undefined;
      const taken = await trx
        .updateTable('jobs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), updated_at: now() }))
        .where('id', '=', job.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (toNumber(taken.numUpdatedRows) === 0) return undefined;
      return { id: job.id, payload: JSON.parse(job.payload) as Record<string, unknown> };
    });
  }

  async function runJob(queue: string, worker: Worker, job: { id: string; payload: Record<string, unknown> }): Promise<void> {
    try {
      await worker.handler(job.payload);
      await db.deleteFrom('jobs').where('id', '=', job.id).execute();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error({ queue, jobId: job.id, err: message }, 'job failed');
      await db.updateTable('jobs').set({ status: 'failed', last_error: message, updated_at: now() }).where('id', '=', job.id).execute();
    }
  }

  async function pump(queue: string): Promise<void> {
    const worker = workers.get(queue);
    if (worker === undefined) return;
    while (!closed && worker.running < worker.concurrency) {
      worker.running += 1;
      let job;
      try {
        job = await claim(queue);
      } catch (error) {
        worker.running -= 1;
        logger.error({ queue, err: error }, 'could not claim a job');
        return;
      }
      if (job === undefined) {
        worker.running -= 1;
        return;
      }
      const running = runJob(queue, worker, job).finally(() => {
        worker.running -= 1;
        inFlight.delete(running);
        void pump(queue);
      });
      inFlight.add(running);
    }
  }

  const pumpAll = () => Promise.all([...workers.keys()].map((queue) => pump(queue)));

  return {
    async enqueue(queue, payload, { id, runAt }) {
      const at = now();
      await db
        .insertInto('jobs')
        .values({ id, queue, payload: JSON.stringify(payload), status: 'queued', attempts: 0, run_at: (runAt ?? clock.now()).toISOString(), last_error: null, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      void pump(queue);
    },
    process(queue, concurrency, handler) {
      workers.set(queue, { concurrency, handler, running: 0 });
      void db
        .updateTable('jobs')
        .set({ status: 'queued', updated_at: now() })
        .where('queue', '=', queue)
        .where('status', '=', 'running')
        .execute()
        .then(() => pump(queue));
      if (timer === undefined) {
        timer = setInterval(() => void pumpAll(), options.pollMs ?? 250);
        timer.unref();
      }
    },
    async drain() {
      for (;;) {
        await pumpAll();
        if (inFlight.size === 0) {
          const due = await db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).where('status', 'in', ['queued', 'running']).where('run_at', '<=', now()).executeTakeFirst();
          if (toNumber(due?.n) === 0) return;
        }
        await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, 10))]);
      }
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
