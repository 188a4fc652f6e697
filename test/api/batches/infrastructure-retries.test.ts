import { describe, expect, it } from 'vitest';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { sweepBatches } from '../../../src/domain/batches/batch-sweeper.js';
import { markTransient } from '../../../src/ports/dependency-unavailable.js';
import { ProviderRefusal } from '../../../src/ports/image-provider.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { countingStandIn } from '../../../src/test-support/stand-in-provider.js';
import { createHarness, json, testCpuPool, type Harness, type HarnessOptions } from '../../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';

/**
 * Issue 23: a batch rides out its database or blob store going away. Faults are injected by replacing one
 * repository or store method, so each case says exactly which write failed; the queue's retries (clock
 * time on the database queue, real time on BullMQ) are moved along by advancing the test clock.
 */
const closing = closeAfterEach();
let receiver: WebhookReceiver | undefined;

interface Batch {
  status: string;
  completed_count: number;
  failed_count: number;
  items: { index: number; status: string; error: string | null }[];
  webhook: { deliveries: { status: string }[] };
}

const RETRY = { attempts: 3, backoffMs: 20 };
const small = { model: 'local/procedural', width: 64, height: 64 };
// What the PostgreSQL adapter throws when its connection is refused: the driver's error, marked transient by it.
const outage = () => markTransient(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));

async function start(options: HarnessOptions = {}): Promise<Harness> {
  receiver = closing(await startWebhookReceiver());
  const h = closing(await createHarness({ jobRetry: RETRY, ...options }));
  h.clock.set(new Date().toISOString());
  return h;
}

/** A model with a price, so every prompt has a charge: $0.003 a picture on the stand-in Replicate. */
const PAID = { model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 };

async function createBatch(harness: Harness, prompts: string[], settings: Record<string, unknown> = small): Promise<string> {
  const res = await harness.call('POST', '/api/batch/create', { name: 'outage', prompts, ...settings, webhook_url: receiver?.url });
  if (res.status !== 201) throw new Error(`batch refused: ${res.status} ${await res.text()}`);
  return (await json<{ id: string }>(res)).id;
}

/** Waits for a final batch, moving the clock along so that delayed retries come due. */
const finished = (harness: Harness, id: string) =>
  eventually(async () => {
    harness.clock.advance(100);
    const batch = await json<Batch>(await harness.call('GET', `/api/batch/${id}`));
    return batch.status === 'completed' ? batch : undefined;
  }, 20_000);

/** Fails the first `times` calls of `method` on `target` with a lost connection, then lets calls through. */
function failFirst<T extends object, K extends keyof T>(target: T, method: K, times: number): { calls: () => number } {
  const original = target[method];
  if (typeof original !== 'function') throw new Error('not a method');
  let calls = 0;
  const replacement = async (...args: unknown[]) => {
    calls += 1;
    if (calls <= times) throw outage();
    return (original as (...a: unknown[]) => Promise<unknown>).apply(target, args);
  };
  Object.assign(target, { [method]: replacement });
  return { calls: () => calls };
}

describe('batch prompts on an infrastructure failure', () => {
  it('retries a prompt whose record failed on the database, and completes the batch with one webhook', async () => {
    const harness = await start();
    const fault = failFirst(harness.deps.db.generations, 'succeed', 2);
    const id = await createBatch(harness, ['a fox', 'a whale', 'a frog']);
    const batch = await finished(harness, id);
    expect(batch).toMatchObject({ completed_count: 3, failed_count: 0 });
    expect(fault.calls()).toBe(5);
    await receiver?.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver?.received).toHaveLength(1);
    // The first test of a scale-out run also starts the S3 server and the render thread.
  }, 60_000);

  it("records a paid prompt's stored answer on its next run after its record failed: no second provider call, charged once", async () => {
    const standIn = countingStandIn();
    const harness = await start({ providers: { replicate: standIn.provider } });
    // The record and the journal of the stored answer both fail at first, as they do when the database is cut.
    const fault = failFirst(harness.deps.db.generations, 'succeed', 2);
    failFirst(harness.deps.db.charges, 'recordJournal', 1);
    const id = await createBatch(harness, ['a fox', 'a whale'], PAID);
    const batch = await finished(harness, id);
    expect(batch).toMatchObject({ completed_count: 2, failed_count: 0 });
    expect(fault.calls()).toBe(4);
    expect(standIn.calls()).toBe(2);
    const charges = await json<{ charges: { outcome: string; image_id: string }[] }>(await harness.call('GET', '/api/analytics/charges'));
    expect(charges.charges.map((charge) => charge.outcome)).toEqual(['succeeded', 'succeeded']);
    expect(new Set(charges.charges.map((charge) => charge.image_id)).size).toBe(2);
  }, 60_000);

  it('retries a prompt whose image could not be stored, instead of recording GENERATION_FAILED', async () => {
    const harness = await start();
    failFirst(harness.deps.blobs, 'put', 1);
    const batch = await finished(harness, await createBatch(harness, ['a fox', 'a whale']));
    expect(batch).toMatchObject({ completed_count: 2, failed_count: 0 });
  });

  it('retries a refusal whose recording failed on the database, then records the refusal', async () => {
    const procedural = createProceduralProvider(testCpuPool());
    const refusing = {
      id: 'local',
      generate: async (...args: Parameters<typeof procedural.generate>) => {
        if (args[0].prompt.includes('forbidden')) throw new ProviderRefusal('refused: content policy');
        return procedural.generate(...args);
      },
    };
    const harness = await start({ providers: { local: refusing } });
    const fault = failFirst(harness.deps.db.generations, 'end', 1);
    const batch = await finished(harness, await createBatch(harness, ['a fox', 'a forbidden thing']));
    expect(batch).toMatchObject({ completed_count: 1, failed_count: 1 });
    expect(batch.items[1]).toMatchObject({ status: 'failed', error: 'refused: content policy' });
    expect(fault.calls()).toBe(2);
  });

  it('retries a last item whose batch could not be finished, and sends batch.completed once', async () => {
    const harness = await start();
    failFirst(harness.deps.db.batches, 'finishIfDone', RETRY.attempts - 1);
    const batch = await finished(harness, await createBatch(harness, ['a fox']));
    expect(batch.completed_count).toBe(1);
    await receiver?.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver?.received).toHaveLength(1);
  });

  it('queues again, by the sweeper, a prompt whose job failed for good during a long outage', async () => {
    const harness = await start();
    const fault = failFirst(harness.deps.db.generations, 'succeed', RETRY.attempts);
    const id = await createBatch(harness, ['a fox']);
    await eventually(async () => {
      harness.clock.advance(1_000);
      return fault.calls() === RETRY.attempts ? true : undefined;
    });
    harness.clock.advance(60_000);
    await harness.deps.queue.drain();
    expect((await json<Batch>(await harness.call('GET', `/api/batch/${id}`))).status).toBe('processing');

    expect(await sweepBatches(harness.deps)).toMatchObject({ items: 1, batches: 1 });
    expect(await finished(harness, id)).toMatchObject({ completed_count: 1 });
    await receiver?.waitFor(1);
  });

  it('sweeps by itself every sweepIntervalMs', async () => {
    const harness = await start({ batch: { sweepIntervalMs: 100 } });
    const fault = failFirst(harness.deps.db.generations, 'succeed', RETRY.attempts);
    const batch = await finished(harness, await createBatch(harness, ['a fox']));
    expect(batch.completed_count).toBe(1);
    expect(fault.calls()).toBe(RETRY.attempts + 1);
  });

  it('retries a webhook delivery whose attempt could not be recorded, until it is recorded delivered', async () => {
    const harness = await start();
    const fault = failFirst(harness.deps.db.webhookOutbox, 'recordAttempt', 1);
    const id = await createBatch(harness, ['a fox']);
    await finished(harness, id);
    const batch = await eventually(async () => {
      harness.clock.advance(100);
      const current = await json<Batch>(await harness.call('GET', `/api/batch/${id}`));
      return current.webhook.deliveries[0]?.status === 'delivered' ? current : undefined;
    });
    expect(batch.webhook.deliveries).toHaveLength(1);
    expect(fault.calls()).toBe(2);
    // Sent again because the first send was not recorded: at least once, under the same webhook-id.
    const received = receiver?.received ?? [];
    expect(received).toHaveLength(2);
    expect(new Set(received.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
  });

  it('records, on the last attempt, an error that is no outage (a bug), so the batch still ends', async () => {
    const harness = await start();
    Object.assign(harness.deps.db.generations, {
      succeed: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      },
    });
    const batch = await finished(harness, await createBatch(harness, ['a fox']));
    expect(batch).toMatchObject({ completed_count: 0, failed_count: 1 });
    expect(batch.items[0]?.error).toMatch(/internal error/);
  });
});
