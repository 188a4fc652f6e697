import { afterEach, expect, it } from 'vitest';
import { startBatchWorkers, type BatchWorkers } from '../../src/domain/batches/batch-workers.js';
import { createHarness, type Harness } from '../../src/test-support/harness.js';

let h: Harness | undefined;
const started: BatchWorkers[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((workers) => workers.stop()));
  await h?.close();
  h = undefined;
});

it('sweeps objects stored without a record once per interval however many processes ask, on the shared queue', async () => {
  h = await createHarness({ workers: false });
  const harness = h;
  // Each sweep lists the store: counting the listings counts the sweeps.
  let sweeps = 0;
  const list = harness.deps.blobs.list.bind(harness.deps.blobs);
  harness.deps.blobs.list = (prefix: string) => {
    if (prefix === 'generated/') sweeps += 1;
    return list(prefix);
  };
  // Two worker processes' worth of sweepers on the same queue, asking every 100 ms of real time.
  const windows = new Set<number>();
  const intervalMs = 100;
  for (let i = 0; i < 2; i += 1) started.push(await startBatchWorkers(harness.deps, { reconcile: { intervalMs, graceSeconds: 0 } }));
  const until = Date.now() + 1_000;
  while (Date.now() < until) {
    windows.add(Math.floor(harness.deps.clock.now().getTime() / intervalMs));
    harness.clock.advance(intervalMs);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  await harness.deps.queue.drain();
  expect(sweeps).toBeGreaterThan(0);
  // Both asked in every window; one sweep ran per window at most.
  expect(sweeps).toBeLessThanOrEqual(windows.size + 1);
});
