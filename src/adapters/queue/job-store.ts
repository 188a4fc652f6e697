import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../ports/database.js';
import type { QueueStats } from '../../ports/job-queue.js';
import { toNumber } from '../db/rows.js';
import type { DatabaseSchema } from '../db/schema.js';
import { DEFAULT_MAX_BOUND_PARAMETERS, perStatement } from '../db/statements.js';

export interface ClaimedJob {
  id: string;
  payload: Record<string, unknown>;
  /** Names this claim; every later write about the job goes through it. */
  token: string;
  /** Runs of this job so far, this one included. */
  attempts: number;
  /** Carried beside the payload (trace context); undefined when the job has none. */
  headers?: Record<string, string>;
}

/** A job may be claimed when it is queued and due, or running under a lease that ran out (its worker died or stalled). */
const claimable = (now: string) => (eb: ExpressionBuilder<DatabaseSchema, 'jobs'>) =>
  eb.or([
    eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
    // A running job without a lease was left by a version that had none.
    eb.and([eb('status', '=', 'running'), eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)])]),
  ]);

const released = { locked_by: null, locked_until: null } as const;

/** Rows per multi-row insert: 11 parameters each keeps a statement far under SQLite's and PostgreSQL's limits (D1 allows fewer). */
const JOBS_PER_INSERT = 500;
const VALUES_PER_JOB = 11;

/** Where a job stands, for a pushed message that could not claim it (see `peek`). */
export interface JobState {
  status: string;
  runAt: string;
  lockedUntil: string | null;
}

export interface NewJobRow {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  runAt: string;
  now: string;
  headers?: Readonly<Record<string, string>>;
  /** Lower is claimed first (default 0). */
  priority?: number;
}

/** The queue's statements on the `jobs` table, the same on SQLite and PostgreSQL but for how a claim locks. */
export function createJobStore(db: Kysely<DatabaseSchema>, dialect: Database['dialect'], limits = { maxBoundParameters: DEFAULT_MAX_BOUND_PARAMETERS }) {
  // Besides the rows, a revival's ON CONFLICT binds a few values of its own (status, attempts, the lease, the guard).
  const perInsert = perStatement(JOBS_PER_INSERT, limits.maxBoundParameters, VALUES_PER_JOB, 8);
  const idsPerStatement = perStatement(JOBS_PER_INSERT, limits.maxBoundParameters, 1, 2);
  const toClaimed = (row: { id: string; payload: string; attempts: number; headers: string | null }, token: string): ClaimedJob => {
    const claimed: ClaimedJob = { id: row.id, payload: JSON.parse(row.payload) as Record<string, unknown>, token, attempts: toNumber(row.attempts) };
    return row.headers === null ? claimed : { ...claimed, headers: JSON.parse(row.headers) as Record<string, string> };
  };
  return {
    /**
     * Adds each job unless its id exists (a later duplicate in `jobs` is dropped); with `reviveFailed`, a failed job
     * of that id is queued again, its attempts counted anew. A few multi-row statements, however many jobs.
     * Returns the ids added or revived: the jobs that are new to whoever runs them (a pushed queue sends those a message).
     */
    async insert(jobs: readonly NewJobRow[], reviveFailed: boolean): Promise<string[]> {
      const seen = new Set<string>();
      const rows = jobs
        .filter((job) => !seen.has(job.id) && seen.add(job.id))
        .map((job) => ({
          id: job.id,
          queue: job.queue,
          payload: JSON.stringify(job.payload),
          status: 'queued',
          attempts: 0,
          run_at: job.runAt,
          last_error: null,
          created_at: job.now,
          updated_at: job.now,
          headers: job.headers === undefined || Object.keys(job.headers).length === 0 ? null : JSON.stringify(job.headers),
          priority: job.priority ?? 0,
        }));
      const added: string[] = [];
      for (let at = 0; at < rows.length; at += perInsert) {
        const inserted = await db
          .insertInto('jobs')
          .values(rows.slice(at, at + perInsert))
          .onConflict((oc) =>
            reviveFailed
              ? oc
                  .column('id')
                  .doUpdateSet((eb) => ({
                    status: 'queued',
                    attempts: 0,
                    run_at: eb.ref('excluded.run_at'),
                    priority: eb.ref('excluded.priority'),
                    updated_at: eb.ref('excluded.updated_at'),
                    ...released,
                  }))
                  .where('jobs.status', '=', 'failed')
              : oc.column('id').doNothing(),
          )
          .returning('id')
          .execute();
        added.push(...inserted.map((row) => row.id));
      }
      return added;
    },

    /**
     * Takes the next claimable job of `queue` in one statement: a job whose worker's lease ran out first (it was at the
     * head of the queue when first claimed), else the queued due job of the lowest priority, then due first, then
     * oldest (FIFO among equals). Each is one walk of the jobs_claim index that stops at its first match, without a
     * sort, however long the backlog. On PostgreSQL the candidate rows are locked with SKIP LOCKED, so workers claiming
     * at once each get a different job instead of queueing up behind one row; SQLite runs one write statement at a
     * time, which is all the exclusion it needs.
     *
     * With `unlessEarly`, claims nothing while the job of that id is queued for later (a pushed message that came early).
     */
    async claim(queue: string, token: string, now: string, lockedUntil: string, unlessEarly?: string): Promise<ClaimedJob | undefined> {
      const first = (status: 'queued' | 'running') => {
        let candidate = db
          .selectFrom('jobs')
          .select('id')
          .where('queue', '=', queue)
          .where('status', '=', status)
          .where((eb) => (status === 'queued' ? eb('run_at', '<=', now) : eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)])))
          .orderBy('priority')
          .orderBy('run_at')
          .orderBy('created_at')
          .limit(1);
        if (dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
        return candidate;
      };
      const row = await db
        .updateTable('jobs')
        .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), locked_by: token, locked_until: lockedUntil, updated_at: now }))
        .where((eb) => eb('id', '=', eb.fn.coalesce(first('running'), first('queued'))))
        .$if(unlessEarly !== undefined, (update) =>
          update.where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('jobs')
                  .select('id')
                  .where('id', '=', unlessEarly ?? '')
                  .where('status', '=', 'queued')
                  .where('run_at', '>', now),
              ),
            ),
          ),
        )
        .returning(['id', 'payload', 'attempts', 'headers'])
        .executeTakeFirst();
      return row === undefined ? undefined : toClaimed(row, token);
    },

    /** Where the job of this id stands (undefined: done, or never there), read without changing it. */
    async peek(id: string): Promise<JobState | undefined> {
      const row = await db.selectFrom('jobs').select(['status', 'run_at', 'locked_until']).where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : { status: row.status, runAt: row.run_at, lockedUntil: row.locked_until };
    },

    /** Removes jobs just added that nobody has touched yet: their enqueue failed after the insert, and its caller may try again. */
    async withdraw(ids: readonly string[]): Promise<void> {
      for (let at = 0; at < ids.length; at += idsPerStatement) {
        await db
          .deleteFrom('jobs')
          .where('id', 'in', ids.slice(at, at + idsPerStatement))
          .where('status', '=', 'queued')
          .where('attempts', '=', 0)
          .execute();
      }
    },

    /** Extends the leases of these claims; returns the claims still held (a claim missing was lost to another worker). */
    async renew(tokens: readonly string[], lockedUntil: string): Promise<Set<string>> {
      if (tokens.length === 0) return new Set();
      const rows = await db
        .updateTable('jobs')
        .set({ locked_until: lockedUntil })
        .where('locked_by', 'in', tokens)
        .where('status', '=', 'running')
        .returning('locked_by')
        .execute();
      return new Set(rows.map((row) => row.locked_by).filter((token) => token !== null));
    },

    /** Removes a finished job, if this claim still holds it. */
    async complete(job: ClaimedJob): Promise<boolean> {
      const result = await db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', job.token).executeTakeFirst();
      return toNumber(result.numDeletedRows) > 0;
    },

    /** Queues a job that threw to run again at `runAt`, keeping its error for whoever looks, if this claim still holds it. */
    async retry(job: ClaimedJob, error: string, runAt: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set({ status: 'queued', run_at: runAt, last_error: error, updated_at: now, ...released })
        .where('id', '=', job.id)
        .where('locked_by', '=', job.token)
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows) > 0;
    },

    async fail(job: ClaimedJob, error: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set({ status: 'failed', last_error: error, updated_at: now, ...released })
        .where('id', '=', job.id)
        .where('locked_by', '=', job.token)
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows) > 0;
    },

    /** Queues again, as it was before this claim (its attempt uncounted), a job whose handler had not begun it. */
    async giveBack(job: ClaimedJob, now: string): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set((eb) => ({ status: 'queued', attempts: eb('attempts', '-', 1), updated_at: now, ...released }))
        .where('id', '=', job.id)
        .where('locked_by', '=', job.token)
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows) > 0;
    },

    /** Gives running jobs back to the queue at once (shutdown), instead of leaving them to their leases. */
    async handBack(tokens: readonly string[], now: string): Promise<number> {
      if (tokens.length === 0) return 0;
      const result = await db
        .updateTable('jobs')
        .set({ status: 'queued', updated_at: now, ...released })
        .where('locked_by', 'in', tokens)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows);
    },

    /** Queues again every running job of `queue`: only for a worker that knows it is the only one (the embedded mode's lock). */
    async takeOver(queue: string, now: string): Promise<number> {
      const result = await db
        .updateTable('jobs')
        .set({ status: 'queued', updated_at: now, ...released })
        .where('queue', '=', queue)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return toNumber(result.numUpdatedRows);
    },

    /**
     * Per queue, the claimable jobs and since when the longest-waiting was due: its run time, or for a job whose
     * worker's lease ran out, the end of that lease. Queues with nothing claimable are left out.
     */
    async waiting(queues: readonly string[], now: string): Promise<{ queue: string; count: number; dueSince: string | null }[]> {
      if (queues.length === 0) return [];
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => [
          'queue',
          eb.fn.countAll().as('n'),
          eb.fn.min(eb.case().when('status', '=', 'queued').then(eb.ref('run_at')).else(eb.fn.coalesce('locked_until', 'run_at')).end()).as('due_since'),
        ])
        .where('queue', 'in', queues)
        .where(claimable(now))
        .groupBy('queue')
        .execute();
      return rows.map((row) => ({ queue: row.queue, count: toNumber(row.n), dueSince: row.due_since }));
    },

    /** Jobs any worker could claim now, oldest due first: what a pushed queue sends again after losing messages. */
    async claimableJobs(now: string, limit: number): Promise<{ id: string; queue: string }[]> {
      return db.selectFrom('jobs').select(['id', 'queue']).where(claimable(now)).orderBy('run_at').limit(limit).execute();
    },
    async countClaimable(queues: readonly string[], now: string): Promise<number> {
      if (queues.length === 0) return 0;
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('queue', 'in', queues)
        .where(claimable(now))
        .executeTakeFirst();
      return toNumber(row?.n);
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;

/** `JobQueue.stats` from the table, at `at`: what every queue on it reports, whoever runs its jobs. */
export async function queueStats(store: JobStore, queues: readonly string[], at: Date): Promise<QueueStats[]> {
  const rows = await store.waiting(queues, at.toISOString());
  return queues.map((queue) => {
    const row = rows.find((candidate) => candidate.queue === queue);
    const dueSince = row === undefined || row.dueSince === null ? undefined : Date.parse(row.dueSince);
    return { queue, waiting: row?.count ?? 0, oldestWaitSeconds: dueSince === undefined ? 0 : Math.max(0, (at.getTime() - dueSince) / 1000) };
  });
}
