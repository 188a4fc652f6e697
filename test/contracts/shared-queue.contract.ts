import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/ports/job-queue.js';
import type { LeaseControls, QueueFixture } from './job-queue.contract.js';
import { never, until } from './wait.js';

/** Counts what each queue instance runs, and whether a job ever ran in two places at once. */
function tally() {
  const running = new Set<string>();
  const runs = new Map<string, number>();
  const byInstance = new Map<string, number>();
  const peak = new Map<string, number>();
  const current = new Map<string, number>();
  let overlaps = 0;
  const handler = (instance: string) => async (payload: Record<string, unknown>) => {
    const id = String(payload.id);
    if (running.has(id)) overlaps += 1;
    running.add(id);
    current.set(instance, (current.get(instance) ?? 0) + 1);
    peak.set(instance, Math.max(peak.get(instance) ?? 0, current.get(instance) ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 5 + (id.length % 3) * 5));
    current.set(instance, (current.get(instance) ?? 0) - 1);
    running.delete(id);
    runs.set(id, (runs.get(id) ?? 0) + 1);
    byInstance.set(instance, (byInstance.get(instance) ?? 0) + 1);
  };
  return { handler, runs, byInstance, peak, overlaps: () => overlaps, total: () => [...runs.values()].reduce((a, b) => a + b, 0) };
}

const leasesOf = (f: QueueFixture): LeaseControls => {
  if (f.leases === undefined) throw new Error('the lease cases need a fixture with `leases`');
  return f.leases;
};

/** Several worker processes on one storage: exclusive claims, and leases that recover a dead worker's jobs but never a live one's. */
export function describeLeaseContract(open: () => Promise<QueueFixture>): void {
  describe('shared by several workers under leases', () => {
    it('lets two worker processes run 50 jobs between them, each exactly once and never twice at the same time', async () => {
      const f = await open();
      const other = await f.peer();
      const t = tally();
      const ids = Array.from({ length: 50 }, (_, i) => `job-${i}`);
      for (const id of ids) await f.queue.enqueue('q', { id }, { id });
      f.queue.process('q', 3, t.handler('a'));
      other.process('q', 3, t.handler('b'));
      await until(() => t.total() >= 50);
      await Promise.all([f.queue.drain(), other.drain()]);
      expect(t.total()).toBe(50);
      expect([...t.runs.keys()].sort()).toEqual([...ids].sort());
      expect(t.overlaps()).toBe(0);
      expect(t.byInstance.get('a')).toBeGreaterThan(0);
      expect(t.byInstance.get('b')).toBeGreaterThan(0);
      expect(Math.max(t.peak.get('a') ?? 0, t.peak.get('b') ?? 0)).toBeLessThanOrEqual(3);
      await f.close();
    });

    it('runs again, once its lease has run out, a job whose worker died, and only then', async () => {
      const f = await open();
      let starts = 0;
      f.queue.process('q', 1, async () => {
        starts += 1;
        await never();
      });
      await f.queue.enqueue('q', { n: 7 }, { id: 'orphan' });
      await until(() => starts === 1);
      leasesOf(f).kill(f.queue);

      const other = await f.peer();
      const seen: unknown[] = [];
      other.process('q', 1, async (payload) => {
        seen.push(payload.n);
      });
      // Drain claims what is due: the dead worker's job is not, while its lease lasts.
      await other.drain();
      expect(seen).toEqual([]);
      await leasesOf(f).outliveLease();
      await until(() => seen.length === 1);
      await other.drain();
      expect(seen).toEqual([7]);
      expect(starts).toBe(1);
      await f.close();
    });

    it('leaves a live worker its job for as long as it renews the lease', async () => {
      const f = await open();
      let release = () => undefined as void;
      const runs: string[] = [];
      f.queue.process('q', 1, async () => {
        runs.push('a');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      await f.queue.enqueue('q', {}, { id: 'long' });
      await until(() => runs.length === 1);
      const other: JobQueue = await f.peer();
      other.process('q', 1, async () => {
        runs.push('b');
      });
      await leasesOf(f).passSeveralLeases();
      expect(runs).toEqual(['a']);
      release();
      await f.queue.drain();
      await other.drain();
      expect(runs).toEqual(['a']);
      await f.close();
    });

    it('hands a job that outlasts the shutdown grace back to the queue, where another worker takes it', async () => {
      const f = await open();
      let started = false;
      f.queue.process('q', 1, async () => {
        started = true;
        await never();
      });
      await f.queue.enqueue('q', { n: 1 }, { id: 'slow' });
      await until(() => started);
      const other = await f.peer();
      const seen: unknown[] = [];
      other.process('q', 1, async (payload) => {
        seen.push(payload.n);
      });
      await f.queue.close();
      await until(() => seen.length === 1);
      expect(seen).toEqual([1]);
      await f.close();
    });
  });
}
