import { describe, expect, it } from 'vitest';
import { GenerationClaimed, runGeneration } from '../../../src/domain/generations/run-generation.js';
import { startup } from '../../../src/domain/startup.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { heldProvider } from './held-provider.js';

/**
 * A queue may run a job a second time while its first run still works (its lease lapsed: a long pause, a database
 * blip on the lease renewal). The first run's claim on the generation keeps the second from calling the provider
 * again, or from finding the first run's charge open and failing a generation that is still being made and paid for.
 */
const closing = closeAfterEach();
const PAID = { prompt: 'a lighthouse in a storm', model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 };

async function accepted(h: Harness): Promise<string> {
  const res = await h.call('POST', '/api/generate', PAID, { Prefer: 'respond-async' });
  expect(res.status).toBe(202);
  return (await json<{ id: string }>(res)).id;
}

describe("a generation's run claim", () => {
  it('sends a second run of its job away while the first calls the provider: one call, charged once, succeeded', async () => {
    const held = heldProvider('replicate');
    const h = closing(await createHarness({ providers: { replicate: held.provider }, workers: false, generationJobs: false }));
    const id = await accepted(h);
    const first = runGeneration(h.deps, id);
    await held.started();
    await expect(runGeneration(h.deps, id)).rejects.toBeInstanceOf(GenerationClaimed);
    held.release();
    await first;
    expect(held.calls()).toBe(1);
    const generation = await json<{ status: string; image_id: string }>(await h.call('GET', `/api/generations/${id}`));
    expect(generation.status).toBe('succeeded');
    const charges = await json<{ charges: { outcome: string; image_id: string }[] }>(await h.call('GET', '/api/analytics/charges'));
    expect(charges.charges).toMatchObject([{ outcome: 'succeeded', image_id: generation.image_id }]);
  });

  it('lets a run take over a generation whose run stopped, once its claim has lapsed', async () => {
    const held = heldProvider('replicate');
    held.release();
    const h = closing(await createHarness({ providers: { replicate: held.provider }, workers: false, generationJobs: false }));
    h.clock.set(new Date().toISOString());
    const id = await accepted(h);
    // A run that started it and then stopped (its process killed) before calling anyone.
    const row = await h.deps.db.generations.findAny(id);
    expect(
      await h.deps.db.generations.start(id, h.clock.now().toISOString(), {
        token: 'run_gone',
        until: new Date(h.clock.now().getTime() + 20_000).toISOString(),
      }),
    ).toBe(true);
    expect(row?.status).toBe('queued');
    await expect(runGeneration(h.deps, id)).rejects.toBeInstanceOf(GenerationClaimed);
    h.clock.advance(21_000);
    await runGeneration(h.deps, id);
    expect(held.calls()).toBe(1);
    expect((await json<{ status: string }>(await h.call('GET', `/api/generations/${id}`))).status).toBe('succeeded');
  });

  it("lets the sole worker of its database, started again after a crash, take over a stopped run's generation at once", async () => {
    const held = heldProvider('replicate');
    held.release();
    const h = closing(await createHarness({ providers: { replicate: held.provider }, workers: false, generationJobs: false }));
    const id = await accepted(h);
    expect(
      await h.deps.db.generations.start(id, h.clock.now().toISOString(), {
        token: 'run_gone',
        until: new Date(h.clock.now().getTime() + 20_000).toISOString(),
      }),
    ).toBe(true);
    await expect(runGeneration(h.deps, id)).rejects.toBeInstanceOf(GenerationClaimed);
    await startup(h.deps, { recover: { orphanGraceSeconds: 3600, callDeadlineMs: 60_000, soleWorker: true }, continuing: 'serving' });
    await runGeneration(h.deps, id);
    expect(held.calls()).toBe(1);
    expect((await json<{ status: string }>(await h.call('GET', `/api/generations/${id}`))).status).toBe('succeeded');
  });
});
