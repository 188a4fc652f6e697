import { describe, expect, it } from 'vitest';
import { sharedReads } from './shared-reads.js';

/** A store whose reads the test finishes by hand, recording when each began and what it saw. */
function manualStore() {
  let value = 0;
  const reads: { key: string; sawAtStart: number; finish: () => void }[] = [];
  const read = (key: string) =>
    new Promise<number>((resolve) => {
      const sawAtStart = value;
      reads.push({ key, sawAtStart, finish: () => resolve(sawAtStart) });
    });
  return { reads, read, write: () => (value += 1) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sharedReads', () => {
  it('never answers a caller from a read that began before it asked', async () => {
    const store = manualStore();
    const get = sharedReads(store.read);
    const first = get('alice');
    store.write();
    // Asked after the write: the read in flight began before it, so this caller must wait for a new one.
    const second = get('alice');
    store.reads[0]?.finish();
    await tick();
    expect(store.reads).toHaveLength(2);
    store.reads[1]?.finish();
    expect(await first).toBe(0);
    expect(await second).toBe(1);
  });

  it('serves every caller who arrived during one read with the same next read', async () => {
    const store = manualStore();
    const get = sharedReads(store.read);
    const first = get('alice');
    const waiting = [get('alice'), get('alice'), get('alice')];
    store.reads[0]?.finish();
    await tick();
    store.reads[1]?.finish();
    expect(await Promise.all([first, ...waiting])).toEqual([0, 0, 0, 0]);
    expect(store.reads).toHaveLength(2);
  });

  it('reads each key on its own, and reads afresh once idle', async () => {
    const store = manualStore();
    const get = sharedReads(store.read);
    const a = get('alice');
    const b = get('bob');
    expect(store.reads.map((r) => r.key)).toEqual(['alice', 'bob']);
    for (const r of store.reads) r.finish();
    await Promise.all([a, b]);
    store.write();
    const later = get('alice');
    store.reads[2]?.finish();
    expect(await later).toBe(1);
  });

  it('passes a failed read to its callers and still runs the next one', async () => {
    let calls = 0;
    const get = sharedReads(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return calls;
    });
    const first = get('alice');
    const second = get('alice');
    await expect(first).rejects.toThrow('connection lost');
    expect(await second).toBe(2);
  });
});
