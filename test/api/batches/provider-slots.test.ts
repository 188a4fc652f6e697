import { afterEach, describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { startBatchWorkers, type BatchWorkers } from '../../../src/domain/batches/batch-workers.js';
import type { Deps } from '../../../src/domain/context.js';
import type { BlobStore } from '../../../src/ports/blob-store.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, json, testCpuPool, type Harness } from '../../../src/test-support/harness.js';
import { eventually } from '../../../src/test-support/webhook-receiver.js';

let h: Harness | undefined;
let workers: BatchWorkers | undefined;
afterEach(async () => {
  await workers?.stop();
  await h?.close();
  h = undefined;
  workers = undefined;
});

const small = { model: 'local/procedural', width: 64, height: 64 };

/** A provider whose calls each wait for the test to answer them, counting how many are in flight at once. */
function heldProvider() {
  const procedural = createProceduralProvider(testCpuPool());
  const calls: { prompt: string; answer: () => void }[] = [];
  let inFlight = 0;
  let peak = 0;
  const provider: ImageProvider = {
    id: 'local',
    generate: async (request, options) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => calls.push({ prompt: request.prompt, answer: resolve }));
      inFlight -= 1;
      return procedural.generate(request, options);
    },
  };
  return { provider, calls, peak: () => peak, answerAll: () => calls.forEach((call) => call.answer()) };
}

/** The store with every write held until the test opens it: a prompt's bookkeeping after its provider answered; `waiting` counts images held. */
function heldStore(blobs: BlobStore) {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const store: BlobStore = Object.assign(Object.create(blobs) as BlobStore, {
    async put(key: string, bytes: Uint8Array, contentType: string) {
      // Images are counted, not their thumbnails (stored beside each, two more puts).
      if (!key.startsWith('thumbnails/')) waiting += 1;
      await opened;
      await blobs.put(key, bytes, contentType);
    },
  });
  return { store, open, waiting: () => waiting };
}

/** The harness without its own workers, and workers whose stores and providers the test holds. */
async function start(concurrency: number, provider: ImageProvider) {
  h = await createHarness({ providers: { local: provider }, batch: { concurrency }, workers: false, generationJobs: false });
  const storage = heldStore(h.deps.blobs);
  let warmed = 0;
  const codec = h.deps.codec;
  const counting: Deps['codec'] = Object.assign(Object.create(codec) as Deps['codec'], { warm: () => void ((warmed += 1), codec.warm?.()) });
  const completed: number[] = [];
  const started: number[] = [];
  // A batch's prompts start and settle through their generations, which name the prompt they run.
  const generations = h.deps.db.generations;
  type Generations = Deps['db']['generations'];
  const deps: Deps = {
    ...h.deps,
    blobs: storage.store,
    codec: counting,
    db: Object.assign(Object.create(h.deps.db) as Deps['db'], {
      generations: Object.assign(Object.create(generations) as Generations, {
        start: (...args: Parameters<Generations['start']>) =>
          generations.start(...args).then((ok) => (ok && args[4] !== undefined && started.push(args[4].idx), ok)),
        succeed: (...args: Parameters<Generations['succeed']>) =>
          generations.succeed(...args).then((ok) => (ok && args[5] !== undefined && completed.push(args[5].idx), ok)),
      }),
    }),
  };
  workers = await startBatchWorkers(deps);
  return { harness: h, storage, started, completed, warmed: () => warmed };
}

const prompts = (count: number) => Array.from({ length: count }, (_, i) => `prompt number ${i}`);

describe('batch prompts and their provider slots', () => {
  it("starts the next prompt's provider call while the answered ones are still being stored, never more calls than BATCH_CONCURRENCY", async () => {
    const held = heldProvider();
    const { harness, storage, completed } = await start(2, held.provider);
    const { id } = await json<{ id: string }>(await harness.call('POST', '/api/batch/generate', { prompts: prompts(4), ...small }));

    await eventually(async () => (held.calls.length === 2 ? true : undefined));
    held.answerAll();
    // Both answers are stuck in storage, and yet the next two prompts are calling.
    await eventually(async () => (storage.waiting() === 2 && held.calls.length === 4 ? true : undefined));
    expect(completed).toEqual([]);

    storage.open();
    held.answerAll();
    const batch = await eventually(async () => {
      const read = await json<{ status: string; completed_count: number }>(await harness.call('GET', `/api/batch/${id}`));
      return read.status === 'completed' ? read : undefined;
    });
    expect(batch.completed_count).toBe(4);
    expect(held.peak()).toBe(2);
  });

  it('warms the codec while the first provider call is still out, before any answer needs it', async () => {
    const held = heldProvider();
    const { harness, storage, completed, warmed } = await start(1, held.provider);
    await harness.call('POST', '/api/batch/generate', { prompts: prompts(1), ...small });
    await eventually(async () => (held.calls.length === 1 && warmed() > 0 ? true : undefined));
    storage.open();
    held.answerAll();
    await eventually(async () => (completed.length === 1 ? true : undefined));
  });

  it('at shutdown, finishes storing what was answered and hands back, unstarted, the prompt still waiting for its slot', async () => {
    const held = heldProvider();
    const { harness, storage, started, completed } = await start(1, held.provider);
    const { id } = await json<{ id: string }>(await harness.call('POST', '/api/batch/generate', { prompts: prompts(3), ...small }));

    // One prompt is calling and another, its job taken too (BATCH_CONCURRENCY 1 lets one more job run), waits for the slot.
    await eventually(async () => (held.calls.length === 1 && (await harness.deps.queue.stats(['batch-item']))[0]?.waiting === 1 ? true : undefined));
    let stopped = false;
    const stopping = (async () => {
      await workers?.stop();
      await harness.deps.queue.close();
      stopped = true;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);

    // Answered, then held in storage: shutdown still waits for the record.
    const [calling] = held.calls;
    const idx = Number(calling?.prompt.replace('prompt number ', ''));
    held.answerAll();
    await eventually(async () => (storage.waiting() === 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    storage.open();
    await stopping;

    expect(completed).toEqual([idx]);
    expect(started).toEqual([idx]);
    expect(held.calls).toHaveLength(1);
    const batch = await json<{ items: { status: string }[] }>(await harness.call('GET', `/api/batch/${id}`));
    expect(batch.items.map((item) => item.status)).toEqual([0, 1, 2].map((i) => (i === idx ? 'succeeded' : 'pending')));
  });
});
