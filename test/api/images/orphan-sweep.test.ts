import { afterEach, expect, it } from 'vitest';
import { sweepOrphans } from '../../../src/domain/batches/batch-workers.js';
import { createHarness, type Harness } from '../../../src/test-support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

it('sweeps objects stored without a record once per interval however many processes wake for it', async () => {
  h = await createHarness({ workers: false });
  const harness = h;
  // Each sweep lists the store: counting the listings counts the sweeps.
  let sweeps = 0;
  const list = harness.deps.blobs.list.bind(harness.deps.blobs);
  harness.deps.blobs.list = (prefix: string) => {
    if (prefix === 'generated/') sweeps += 1;
    return list(prefix);
  };
  const reconcile = { intervalMs: 60_000, graceSeconds: 0 };
  // Three processes wake at once in each of five intervals: one of them sweeps each time.
  for (let window = 0; window < 5; window += 1) {
    if (window > 0) harness.clock.advance(reconcile.intervalMs);
    await Promise.all([sweepOrphans(harness.deps, reconcile), sweepOrphans(harness.deps, reconcile), sweepOrphans(harness.deps, reconcile)]);
    expect(sweeps).toBe(window + 1);
  }
  // A late wake-up in an interval already swept does nothing.
  await sweepOrphans(harness.deps, reconcile);
  expect(sweeps).toBe(5);
});
