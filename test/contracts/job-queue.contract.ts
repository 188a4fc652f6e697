import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/ports/job-queue.js';

export interface QueueFixture {
  queue: JobQueue;
  advance(ms: number): void;
  /** A second queue on the same storage, as after the first one's process died and was restarted. */
  reopen(): Promise<JobQueue>;
  /** Another queue on the same storage running alongside the first, as in a second worker process. */
  peer(): Promise<JobQueue>;
  close(): Promise<void>;
}

const until = async (check: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** One behaviour suite for every JobQueue adapter. */
export function describeJobQueueContract(name: string, open: () => Promise<QueueFixture>): void {
  describe(`JobQueue contract: ${name}`, () => {
    it('runs each enqueued job once, and an id enqueued twice is one job', async () => {
      const f = await open();
      const seen: unknown[] = [];
      f.queue.process('q', 2, async (payload) => {
        seen.push(payload.n);
      });
      await f.queue.enqueue('q', { n: 1 }, { id: 'job-1' });
      await f.queue.enqueue('q', { n: 1 }, { id: 'job-1' });
      await f.queue.enqueue('q', { n: 2 }, { id: 'job-2' });
      await f.queue.drain();
      expect(seen.sort()).toEqual([1, 2]);
      await f.close();
    });

    it('never runs more than the concurrency at once', async () => {
      const f = await open();
      let running = 0;
      let peak = 0;
      f.queue.process('q', 3, async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 15));
        running -= 1;
      });
      for (let i = 0; i < 10; i += 1) await f.queue.enqueue('q', {}, { id: `job-${i}` });
      await f.queue.drain();
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

    it('runs again, after a restart, a job that was running when the process died', async () => {
      const f = await open();
      f.queue.process('q', 1, () => new Promise(() => undefined));
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

    it('shares the jobs between two consumers, running each exactly once', async () => {
      const f = await open();
      const peer = await f.peer();
      const runs = new Map<unknown, number>();
      const handler = async (payload: Record<string, unknown>) => {
        runs.set(payload.n, (runs.get(payload.n) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 2));
      };
      f.queue.process('q', 4, handler);
      peer.process('q', 4, handler);
      for (let n = 0; n < 50; n += 1) await (n % 2 === 0 ? f.queue : peer).enqueue('q', { n }, { id: `job-${n}` });
      await f.queue.drain();
      await peer.drain();
      expect([...runs.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, n) => n));
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      await peer.close();
      await f.close();
    });
  });
}
