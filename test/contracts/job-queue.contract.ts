import { describe, expect, it } from 'vitest';
import type { JobRetryPolicy } from '../../src/adapters/queue/retry-policy.js';
import { JobHandedBack, type JobQueue, type JobRun } from '../../src/ports/job-queue.js';
import { describePriorityContract } from './queue-priority.contract.js';
import { describeLeaseContract } from './shared-queue.contract.js';
import { never, until } from './wait.js';

/** Control over time and processes for an adapter whose running jobs are leased to their workers. */
export interface LeaseControls {
  /** Kills the process of `queue` as kill -9 would: it takes no more jobs, renews no lease, and finishes or hands back nothing. */
  kill(queue: JobQueue): void;
  /** Lets time pass until the leases of jobs nobody renews have run out. */
  outliveLease(): Promise<void>;
  /** Lets several lease lengths pass while live workers renew (only live ones may hold jobs), so only a worker that fails to renew loses its job. */
  passSeveralLeases(): Promise<void>;
}

/** The retries every fixture's queues are opened with: few and quick, so a test sees them all. */
export const CONTRACT_RETRY: JobRetryPolicy = { attempts: 3, backoffMs: 50 };

export interface QueueFixture {
  queue: JobQueue;
  /** Moves the queue's clock (delays) forward. */
  advance(ms: number): void;
  /** A second queue on the same storage, as after the first one's process died and was restarted. */
  reopen(): Promise<JobQueue>;
  /** Another queue on the same storage running alongside the first, as in a second worker process. */
  peer(): Promise<JobQueue>;
  /** Given by adapters that lease jobs to workers; the contract's lease cases need it. */
  leases?: LeaseControls;
  close(): Promise<void>;
}

export interface QueueContractOptions {
  /** Several processes consume the storage at once under leases: run the lease cases (the fixture gives `leases`). */
  leases?: boolean;
}

/** One behaviour suite for every JobQueue adapter. */
export function describeJobQueueContract(name: string, open: () => Promise<QueueFixture>, options: QueueContractOptions = {}): void {
  describe(`JobQueue contract: ${name}`, () => {
    it('runs each enqueued job once, and an id enqueued twice while its job exists is one job', async () => {
      const f = await open();
      const seen: unknown[] = [];
      // Held until every enqueue is done: a job that already finished may be enqueued anew under its id.
      let release = () => undefined as void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      f.queue.process('q', 2, async (payload) => {
        await gate;
        seen.push(payload.n);
      });
      await f.queue.enqueue('q', { n: 1 }, { id: 'job-1' });
      await f.queue.enqueue('q', { n: 1 }, { id: 'job-1' });
      await f.queue.enqueue('q', { n: 2 }, { id: 'job-2' });
      release();
      await f.queue.drain();
      expect(seen.sort()).toEqual([1, 2]);
      await f.close();
    });

    it('enqueues several jobs at once as it does one by one: each once, an id already there or given twice is one job', async () => {
      const f = await open();
      const seen: { n: unknown; headers: JobRun['headers'] }[] = [];
      let release = () => undefined as void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      f.queue.process('q', 2, async (payload, run) => {
        await gate;
        seen.push({ n: payload.n, headers: run.headers });
      });
      await f.queue.enqueue('q', { n: 0 }, { id: 'job-0' });
      await f.queue.enqueueAll('q', []);
      await f.queue.enqueueAll('q', [
        { payload: { n: 0 }, options: { id: 'job-0' } },
        { payload: { n: 1 }, options: { id: 'job-1' } },
        { payload: { n: 1 }, options: { id: 'job-1' } },
        { payload: { n: 2 }, options: { id: 'job-2', headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } },
      ]);
      release();
      await f.queue.drain();
      expect(seen.sort((a, b) => Number(a.n) - Number(b.n))).toEqual([
        { n: 0, headers: undefined },
        { n: 1, headers: undefined },
        { n: 2, headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } },
      ]);
      await f.close();
    });

    it('revives, among jobs enqueued at once, a failed one marked so, and leaves one not marked as it is', async () => {
      const f = await open();
      const runs = new Map<unknown, number>();
      f.queue.process('q', 2, async (payload) => {
        runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
        if (payload.n !== 3 && (runs.get(payload.n) ?? 0) <= CONTRACT_RETRY.attempts) throw new Error('the database went away');
      });
      await f.queue.enqueueAll('q', [
        { payload: { n: 1 }, options: { id: 'revived' } },
        { payload: { n: 2 }, options: { id: 'left' } },
      ]);
      await until(() => {
        f.advance(CONTRACT_RETRY.backoffMs * 4);
        return runs.get(1) === CONTRACT_RETRY.attempts && runs.get(2) === CONTRACT_RETRY.attempts;
      });
      await f.queue.enqueueAll('q', [
        { payload: { n: 1 }, options: { id: 'revived', reviveFailed: true } },
        { payload: { n: 2 }, options: { id: 'left' } },
        { payload: { n: 3 }, options: { id: 'new', reviveFailed: true } },
      ]);
      await until(() => runs.get(1) === CONTRACT_RETRY.attempts + 1 && runs.get(3) === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs.get(2)).toBe(CONTRACT_RETRY.attempts);
      await f.close();
    });

    it('hands a job its headers beside the payload, never in it, and none to a job enqueued without', async () => {
      const f = await open();
      const seen = new Map<unknown, { payload: Record<string, unknown>; headers: JobRun['headers'] }>();
      f.queue.process('q', 1, async (payload, run) => {
        seen.set(payload.n, { payload, headers: run.headers });
      });
      const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      await f.queue.enqueue('q', { n: 1 }, { id: 'job-1', headers: { traceparent, tracestate: 'vendor=1' } });
      await f.queue.enqueue('q', { n: 2 }, { id: 'job-2' });
      await f.queue.drain();
      expect(seen.get(1)).toEqual({ payload: { n: 1 }, headers: { traceparent, tracestate: 'vendor=1' } });
      expect(seen.get(2)).toEqual({ payload: { n: 2 }, headers: undefined });
      await f.close();
    });

    it('never runs more than the concurrency at once', async () => {
      const f = await open();
      let running = 0;
      let peak = 0;
      const waiting: (() => void)[] = [];
      f.queue.process('q', 3, async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => waiting.push(resolve));
        running -= 1;
      });
      for (let i = 0; i < 10; i += 1) await f.queue.enqueue('q', {}, { id: `job-${i}` });
      await until(() => running === 3);
      // Several polls' worth of chances to take a fourth job while three are held.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(running).toBe(3);
      const releasing = setInterval(() => waiting.splice(0).forEach((resolve) => resolve()), 5);
      await f.queue.drain();
      clearInterval(releasing);
      expect(peak).toBe(3);
      await f.close();
    });

    it('holds a delayed job until its time', async () => {
      const f = await open();
      let ran = false;
      f.queue.process('q', 1, async () => {
        ran = true;
      });
      await f.queue.enqueue('q', {}, { id: 'later', runAt: new Date(Date.parse('2026-11-20T10:00:10.000Z')) });
      await f.queue.drain();
      expect(ran).toBe(false);
      f.advance(10_000);
      await until(() => ran);
      await f.close();
    });

    it('keeps going after a job fails', async () => {
      const f = await open();
      const done: string[] = [];
      f.queue.process('q', 1, async (payload) => {
        if (payload.fail === true) throw new Error('boom');
        done.push(String(payload.name));
      });
      await f.queue.enqueue('q', { fail: true }, { id: 'bad' });
      await f.queue.enqueue('q', { name: 'good' }, { id: 'good' });
      await f.queue.drain();
      expect(done).toEqual(['good']);
      await f.close();
    });

    it('runs a job that threw again after a backoff, up to its attempts, and again from the start once revived', async () => {
      const f = await open();
      const runs: Pick<JobRun, 'attempt' | 'lastAttempt'>[] = [];
      f.queue.process('q', 1, async (_payload, { attempt, lastAttempt }) => {
        runs.push({ attempt, lastAttempt });
        throw new Error('the database went away');
      });
      await f.queue.enqueue('q', {}, { id: 'flaky' });
      // Backoff is in the queue's clock (the database queue) or in real time (BullMQ): both are moved along.
      await until(() => {
        f.advance(CONTRACT_RETRY.backoffMs * 4);
        return runs.length === CONTRACT_RETRY.attempts;
      });
      const firstRuns = [
        { attempt: 1, lastAttempt: false },
        { attempt: 2, lastAttempt: false },
        { attempt: 3, lastAttempt: true },
      ];
      expect(runs).toEqual(firstRuns);
      f.advance(10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toHaveLength(3);

      // A plain enqueue leaves the failed job as it is; a revival (the batch sweeper's) runs it again, attempts counted anew.
      await f.queue.enqueue('q', {}, { id: 'flaky' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toHaveLength(3);
      await f.queue.enqueue('q', {}, { id: 'flaky', reviveFailed: true });
      await until(() => {
        f.advance(CONTRACT_RETRY.backoffMs * 4);
        return runs.length === 6;
      });
      expect(runs.slice(3)).toEqual(firstRuns);
      await f.close();
    });

    it('revives nothing when the job of that id is still queued, and runs it once', async () => {
      const f = await open();
      let runs = 0;
      await f.queue.enqueue('q', {}, { id: 'waiting' });
      await f.queue.enqueue('q', {}, { id: 'waiting', reviveFailed: true });
      f.queue.process('q', 1, async () => {
        runs += 1;
      });
      await until(() => runs === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toBe(1);
      await f.close();
    });

    it('reports, by its clock, the jobs waiting in each queue and how long the oldest has waited, without taking any', async () => {
      const f = await open();
      const start = Date.parse('2026-11-20T10:00:00.000Z');
      const idle = (queue: string) => ({ queue, waiting: 0, oldestWaitSeconds: 0 });
      expect(await f.queue.stats(['q', 'other'])).toEqual([idle('q'), idle('other')]);

      await f.queue.enqueue('q', {}, { id: 'first' });
      f.advance(5_000);
      await f.queue.enqueue('q', {}, { id: 'second' });
      await f.queue.enqueue('q', {}, { id: 'later', runAt: new Date(start + 60_000) });
      f.advance(2_000);
      // The delayed job is not waiting before its time; reading twice changes nothing.
      expect(await f.queue.stats(['q', 'other'])).toEqual([{ queue: 'q', waiting: 2, oldestWaitSeconds: 7 }, idle('other')]);
      expect(await f.queue.stats(['q'])).toEqual([{ queue: 'q', waiting: 2, oldestWaitSeconds: 7 }]);

      // Once due it waits too; a job being run no longer does.
      f.advance(63_000);
      expect(await f.queue.stats(['q'])).toEqual([{ queue: 'q', waiting: 3, oldestWaitSeconds: 70 }]);
      let release = () => undefined as void;
      const started: string[] = [];
      f.queue.process('q', 1, async () => {
        started.push('job');
        if (started.length === 1) await new Promise<void>((resolve) => (release = resolve));
      });
      await until(() => started.length === 1);
      expect(await f.queue.stats(['q'])).toEqual([{ queue: 'q', waiting: 2, oldestWaitSeconds: 65 }]);
      release();
      await f.queue.drain();
      expect(await f.queue.stats(['q'])).toEqual([idle('q')]);
      await f.close();
    });

    it('on close, waits for the running job to finish', async () => {
      const f = await open();
      const events: string[] = [];
      let release = () => undefined as void;
      f.queue.process('q', 1, async () => {
        events.push('start');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        events.push('end');
      });
      await f.queue.enqueue('q', {}, { id: 'first' });
      await until(() => events.length === 1);
      const closing = f.queue.close().then(() => events.push('closed'));
      await new Promise((resolve) => setTimeout(resolve, 30));
      release();
      await closing;
      expect(events).toEqual(['start', 'end', 'closed']);
      await f.close();
    });

    it('on close, tells a running job, and takes back as it was a job its handler had not begun, to run after a restart as a first attempt', async () => {
      const f = await open();
      const runs: JobRun[] = [];
      f.queue.process('q', 1, async (_payload, run) => {
        runs.push(run);
        // Waiting its turn, as a batch prompt waits for a provider slot, until the queue closes.
        await new Promise<void>((resolve) => run.closing?.addEventListener('abort', () => resolve(), { once: true }));
        throw new JobHandedBack();
      });
      await f.queue.enqueue('q', { n: 7 }, { id: 'waiting-its-turn' });
      await until(() => runs.length === 1);
      expect(runs[0]?.closing?.aborted).toBe(false);
      await f.queue.close();
      expect(runs[0]?.closing?.aborted).toBe(true);

      const restarted = await f.reopen();
      const seen: { n: unknown; attempt: number; lastAttempt: boolean }[] = [];
      restarted.process('q', 1, async (payload, run) => {
        seen.push({ n: payload.n, attempt: run.attempt, lastAttempt: run.lastAttempt });
      });
      await until(() => seen.length === 1);
      expect(seen).toEqual([{ n: 7, attempt: 1, lastAttempt: false }]);
      await restarted.close();
      await f.close();
    });

    it('runs again, after a restart, a job that was running when the process died', async () => {
      const f = await open();
      f.queue.process('q', 1, never);
      await f.queue.enqueue('q', { n: 7 }, { id: 'interrupted' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const restarted = await f.reopen();
      const seen: unknown[] = [];
      restarted.process('q', 1, async (payload) => {
        seen.push(payload.n);
      });
      await until(() => seen.length === 1);
      expect(seen).toEqual([7]);
      await restarted.close();
      await f.close();
    });

    it('shares the jobs between two consumers, running each exactly once and never twice at the same time', async () => {
      const f = await open();
      const peer = await f.peer();
      const runs = new Map<unknown, number>();
      const running = new Set<unknown>();
      let overlaps = 0;
      const handler = async (payload: Record<string, unknown>) => {
        if (running.has(payload.n)) overlaps += 1;
        running.add(payload.n);
        runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running.delete(payload.n);
      };
      f.queue.process('q', 4, handler);
      peer.process('q', 4, handler);
      for (let n = 0; n < 50; n += 1) await (n % 2 === 0 ? f.queue : peer).enqueue('q', { n }, { id: `job-${n}` });
      await f.queue.drain();
      await peer.drain();
      expect([...runs.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, n) => n));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(overlaps).toBe(0);
      await peer.close();
      await f.close();
    });

    describePriorityContract(open);
    if (options.leases === true) describeLeaseContract(open);
  });
}
