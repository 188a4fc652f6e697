import { describe, expect, it } from 'vitest';
import { CONTRACT_RETRY, type QueueFixture } from './job-queue.contract.js';
import { until } from './wait.js';

/** Priorities (issue 38's fair queue rides on them): every adapter takes waiting jobs lower first, FIFO among equals. */
export function describePriorityContract(open: () => Promise<QueueFixture>): void {
  describe('priorities', () => {
    it('takes waiting jobs by priority, lower first, and in the order they were enqueued among equal priorities', async () => {
      const f = await open();
      const enqueued: [string, number | undefined][] = [
        ['a', 5],
        ['b', 1],
        ['c', 5],
        ['d', undefined],
        ['e', 1],
        ['f', 3],
        ['g', 0],
        ['h', 1],
      ];
      for (const [name, priority] of enqueued) {
        await f.queue.enqueue('q', { name }, { id: `job-${name}`, ...(priority === undefined ? {} : { priority }) });
        // Apart in time, as requests are: "in the order enqueued" is by the queue's clock.
        f.advance(1);
      }
      await f.queue.enqueueAll('q', [
        { payload: { name: 'i' }, options: { id: 'job-i', priority: 2 } },
        { payload: { name: 'j' }, options: { id: 'job-j', priority: 5 } },
      ]);
      const started: string[] = [];
      f.queue.process('q', 1, async (payload) => {
        started.push(String(payload.name));
      });
      await until(() => started.length === 10);
      // No priority is priority 0; the jobs enqueued together (i, j) are placed by theirs too.
      expect(started).toEqual(['d', 'g', 'b', 'e', 'h', 'i', 'f', 'a', 'c', 'j']);
      await f.close();
    });

    it('keeps a job its priority when it runs again after a throw: once due, it goes before waiting jobs of a higher one', async () => {
      const f = await open();
      const started: string[] = [];
      let release = () => undefined as void;
      const held = new Promise<void>((resolve) => (release = resolve));
      f.queue.process('q', 1, async (payload) => {
        started.push(String(payload.name));
        if (payload.name === 'first' && started.length === 1) throw new Error('the database went away');
        if (payload.name === 'blocker') await held;
      });
      await f.queue.enqueue('q', { name: 'first' }, { id: 'job-first', priority: 1 });
      await until(() => started.length === 1);
      // The only slot is taken while the first waits out its backoff, and later jobs of a higher priority queue up.
      await f.queue.enqueue('q', { name: 'blocker' }, { id: 'job-blocker' });
      await until(() => started.length === 2);
      await f.queue.enqueueAll('q', [
        { payload: { name: 'later-a' }, options: { id: 'job-later-a', priority: 7 } },
        { payload: { name: 'later-b' }, options: { id: 'job-later-b', priority: 7 } },
      ]);
      // Its backoff passes (the queue's clock, or real time for BullMQ).
      f.advance(2_000);
      await new Promise((resolve) => setTimeout(resolve, CONTRACT_RETRY.backoffMs * 4));
      release();
      await until(() => started.length === 5);
      expect(started).toEqual(['first', 'blocker', 'first', 'later-a', 'later-b']);
      await f.close();
    });
  });
}
