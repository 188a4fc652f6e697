import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/ports/job-queue.js';
import { describeSharedQueueContract } from './shared-queue.contract.js';
import { never, until } from './wait.js';

export interface QueueFixture {
  queue: JobQueue;
  /** Moves the queue's clock (delays, leases) forward. */
  advance(ms: number): void;
  /** A second queue on the same storage: another worker process, or this one restarted. */
  reopen(): Promise<JobQueue>;
  /** Kills the process of `queue` as kill -9 would: it takes no more jobs, renews no lease, and finishes or hands back nothing. */
  kill(queue: JobQueue): void;
  /** Lets time pass until the leases of jobs nobody renews have run out. */
  outliveLease(): Promise<void>;
  /** Lets several lease lengths pass while live workers renew (only live ones may hold jobs), so only a worker that fails to renew loses its job. */
  passSeveralLeases(): Promise<void>;
  close(): Promise<void>;
}

export interface QueueTraits {
  /**
   * Several processes consume the same storage at once (leases). Without it the adapter assumes it is the
   * only consumer (the embedded mode's lock) and takes back at start every job left running.
   */
  sharedWorkers: boolean;
}

/** One behaviour suite for every JobQueue adapter. */
export function describeJobQueueContract(name: string, open: () => Promise<QueueFixture>, traits: QueueTraits): void {
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
      const releasing = setInterval(() => waiting.splice(0).forEach((release) => release()), 5);
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

    it('on close, takes no new job and waits for the running one to finish', async () => {
      const f = await open();
      const events: string[] = [];
      let release = () => undefined as void;
      f.queue.process('q', 1, async (payload) => {
        events.push(`start ${String(payload.n)}`);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        events.push(`end ${String(payload.n)}`);
      });
      await f.queue.enqueue('q', { n: 1 }, { id: 'first' });
      await until(() => events.length === 1);
      const closing = f.queue.close().then(() => events.push('closed'));
      await f.queue.enqueue('q', { n: 2 }, { id: 'second' });
      await new Promise((resolve) => setTimeout(resolve, 30));
      release();
      await closing;
      expect(events).toEqual(['start 1', 'end 1', 'closed']);
      await f.close();
    });

    if (!traits.sharedWorkers) {
      it('runs again, right after a restart, a job that was running when the process died', async () => {
        const f = await open();
        f.queue.process('q', 1, never);
        await f.queue.enqueue('q', { n: 7 }, { id: 'interrupted' });
        await new Promise((resolve) => setTimeout(resolve, 50));
        f.kill(f.queue);
        const restarted = await f.reopen();
        const seen: unknown[] = [];
        restarted.process('q', 1, async (payload) => {
          seen.push(payload.n);
        });
        await until(() => seen.length === 1);
        expect(seen).toEqual([7]);
        await f.close();
      });
    }

    if (traits.sharedWorkers) describeSharedQueueContract(open);
  });
}
