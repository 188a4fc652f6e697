import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepBatches } from '../../../src/domain/batches/batch-sweeper.js';
import { runGeneration } from '../../../src/domain/generations/run-generation.js';
import { deliverWebhook } from '../../../src/domain/webhooks/deliver-webhook.js';
import { ProviderRefusal, type ImageProvider } from '../../../src/ports/image-provider.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, expectInvalid, json, TEST_WEBHOOK_SECRET, type Harness, type HarnessOptions } from '../../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';
import { heldProvider } from './held-provider.js';

/** Issue 38: a generation's own webhook (signed, retried and logged as a batch's) and its deadline_seconds. */
const closing = closeAfterEach();
const BODY = { prompt: 'a lighthouse in a storm', model: 'local/procedural', width: 64, height: 64 };
const PRICED = { ...BODY, model: 'replicate/black-forest-labs/flux-schnell', width: 256, height: 256 };

interface Delivery {
  id: string;
  event: string;
  status: string;
  attempt_count: number;
}
interface Generation {
  id: string;
  status: string;
  image_id: string;
  deadline_at?: string;
  error?: { code: string; details?: { message?: string } };
  webhook?: { url: string; events: string[]; deliveries: Delivery[] };
}
interface Payload {
  event: string;
  generation_id: string;
  status: string;
  image?: { id: string; prompt: string; r2_url: string };
  error?: { error: string; code: string };
  created_at: string;
}

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
});

const start = async (options: HarnessOptions = {}): Promise<Harness> => closing(await createHarness(options));
const accept = async (h: Harness, body: Record<string, unknown>): Promise<Generation> => {
  const res = await h.call('POST', '/api/generate', body, { Prefer: 'respond-async' });
  expect(res.status).toBe(202);
  return json<Generation>(res);
};
const read = async (h: Harness, id: string) => json<Generation>(await h.call('GET', `/api/generations/${id}`));
const ended = (h: Harness, id: string) =>
  eventually(async () => {
    const now = await read(h, id);
    return now.status === 'queued' || now.status === 'running' ? undefined : now;
  });
/** Once the generation ended and each of its deliveries has been answered: what it then shows. */
const delivered = (h: Harness, id: string, count: number) =>
  eventually(async () => {
    const now = await read(h, id);
    const deliveries = now.webhook?.deliveries ?? [];
    const final = now.status !== 'queued' && now.status !== 'running';
    return final && deliveries.length === count && deliveries.every((d) => d.status !== 'pending') ? now : undefined;
  });
const payloadOf = (hook: ReceivedWebhook | undefined): Payload => JSON.parse(hook?.body ?? '{}') as Payload;

/** The receiver checks freshness against its own clock; the harness's clock is fixed, so check the signature itself. */
function expectSigned(hook: ReceivedWebhook | undefined): void {
  const signed = new Webhook(TEST_WEBHOOK_SECRET).sign(
    String(hook?.headers['webhook-id']),
    new Date(Number(hook?.headers['webhook-timestamp']) * 1000),
    hook?.body ?? '',
  );
  expect(hook?.headers['webhook-signature']).toBe(signed);
}

const refusing: ImageProvider = {
  id: 'local',
  generate: () => Promise.reject(new ProviderRefusal('the provider refused this prompt')),
};

describe('a generation with webhook_url', () => {
  it('has its generation.completed delivered once, signed, with its image', async () => {
    const h = await start();
    const accepted = await accept(h, { ...BODY, webhook_url: receiver.url });
    const done = await delivered(h, accepted.id, 1);
    expect(done.status).toBe('succeeded');
    expect(done.webhook).toMatchObject({
      url: receiver.url,
      events: ['generation.completed', 'generation.failed'],
      deliveries: [{ id: `whd_${accepted.id}_completed`, event: 'generation.completed', status: 'delivered', attempt_count: 1 }],
    });

    await h.drainJobs();
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook?.headers['webhook-id']).toBe(`whd_${accepted.id}_completed`);
    expectSigned(hook);
    expect(payloadOf(hook)).toEqual({
      event: 'generation.completed',
      generation_id: accepted.id,
      status: 'succeeded',
      image: { id: accepted.image_id, prompt: BODY.prompt, r2_url: expect.stringContaining(accepted.image_id) },
      created_at: expect.any(String),
    });
  });

  it('sends only the events it names: generation.started for a success, and no completed', async () => {
    const h = await start();
    const accepted = await accept(h, { ...BODY, webhook_url: receiver.url, webhook_events: ['generation.started', 'generation.failed'] });
    const done = await delivered(h, accepted.id, 1);
    expect(done.status).toBe('succeeded');
    expect(done.webhook?.deliveries.map((d) => d.event)).toEqual(['generation.started']);
    await h.drainJobs();
    expect(receiver.received.map((hook) => payloadOf(hook))).toEqual([
      { event: 'generation.started', generation_id: accepted.id, status: 'running', created_at: expect.any(String) },
    ]);
    expectSigned(receiver.received[0]);
  });

  it('has its generation.failed delivered with the error when its provider refuses', async () => {
    const h = await start({ providers: { local: refusing } });
    const accepted = await accept(h, { ...BODY, webhook_url: receiver.url, webhook_events: ['generation.started', 'generation.failed'] });
    const done = await delivered(h, accepted.id, 2);
    expect(done.status).toBe('failed');
    await h.drainJobs();
    const payloads = receiver.received.map((hook) => payloadOf(hook));
    expect(payloads.map((p) => p.event).sort()).toEqual(['generation.failed', 'generation.started']);
    const failed = payloads.find((p) => p.event === 'generation.failed');
    expect(failed).toEqual({
      event: 'generation.failed',
      generation_id: accepted.id,
      status: 'failed',
      error: { error: expect.any(String), code: done.error?.code },
      created_at: expect.any(String),
    });
  });

  it('refuses a webhook_url that is not an http(s) URL, or that points at a private address, naming the field', async () => {
    const h = await start({ allowPrivateNetworks: false });
    await expectInvalid(await h.call('POST', '/api/generate', { ...BODY, webhook_url: 'ftp://example.com/hook' }), 'Invalid webhook_url');
    await expectInvalid(await h.call('POST', '/api/generate', { ...BODY, webhook_url: 'http://127.0.0.1:9/hook' }), 'Invalid webhook_url');
    const listed = await json<{ generations: unknown[] }>(await h.call('GET', '/api/generations'));
    expect(listed.generations).toEqual([]);
  });

  it('refuses an event it does not know', async () => {
    const h = await start();
    const res = await h.call('POST', '/api/generate', { ...BODY, webhook_url: receiver.url, webhook_events: ['generation.exploded'] });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await json(res))).toContain('webhook_events');
  });
});

describe('deadline_seconds', () => {
  it('cancels a generation still queued past its deadline at the sweep: never sent to the provider, never charged', async () => {
    const held = heldProvider('replicate');
    // No workers: what is accepted stays queued, as behind a long queue.
    const h = await start({ providers: { replicate: held.provider }, workers: false, generationJobs: false });
    const accepted = await accept(h, { ...PRICED, deadline_seconds: 60, webhook_url: receiver.url, webhook_events: ['generation.cancelled'] });
    expect(accepted.deadline_at).toBe(new Date(h.clock.now().getTime() + 60_000).toISOString());

    h.clock.advance(59_000);
    await sweepBatches(h.deps);
    expect((await read(h, accepted.id)).status).toBe('queued');

    h.clock.advance(1_000);
    expect(await sweepBatches(h.deps)).toMatchObject({ expiredGenerations: 1 });
    const cancelled = await read(h, accepted.id);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      error: { code: 'GENERATION_CANCELLED', details: { message: expect.stringContaining('deadline_seconds passed') } },
    });

    // Its job, were a worker to reach it now, finds it ended.
    await runGeneration(h.deps, accepted.id);
    expect(held.calls()).toBe(0);
    const charges = await json<{ charges: unknown[] }>(await h.call('GET', '/api/analytics/charges'));
    expect(charges.charges).toEqual([]);

    // Its event is in the outbox with the cancel; the webhook worker is off here, so this test sends it.
    const [delivery] = (await read(h, accepted.id)).webhook?.deliveries ?? [];
    expect(delivery).toMatchObject({ id: `whd_${accepted.id}_cancelled`, event: 'generation.cancelled', status: 'pending' });
    await deliverWebhook(h.deps, delivery?.id ?? '');
    const hooks = await receiver.waitFor(1);
    expectSigned(hooks[0]);
    expect(payloadOf(hooks[0])).toMatchObject({ event: 'generation.cancelled', status: 'cancelled', error: { code: 'GENERATION_CANCELLED' } });
  });

  it('is cancelled by the worker that reaches it after its deadline, before it starts', async () => {
    const held = heldProvider('replicate');
    const h = await start({ providers: { replicate: held.provider }, workers: false, generationJobs: false });
    const accepted = await accept(h, { ...PRICED, deadline_seconds: 1 });
    h.clock.advance(1_000);
    await runGeneration(h.deps, accepted.id);
    expect(await read(h, accepted.id)).toMatchObject({ status: 'cancelled', error: { code: 'GENERATION_CANCELLED' } });
    expect(held.calls()).toBe(0);
  });

  it('does not stop a generation that started before its deadline', async () => {
    const held = heldProvider();
    const h = await start({ providers: { local: held.provider } });
    const accepted = await accept(h, { ...BODY, deadline_seconds: 1 });
    await held.started();
    h.clock.advance(5_000);
    await sweepBatches(h.deps);
    expect((await read(h, accepted.id)).status).toBe('running');
    held.release();
    expect((await ended(h, accepted.id)).status).toBe('succeeded');
  });

  it('refuses a deadline outside 1..86400 seconds, naming the field', async () => {
    const h = await start();
    for (const deadline of [0, 86_401, 1.5]) {
      await expectInvalid(await h.call('POST', '/api/generate', { ...BODY, deadline_seconds: deadline }), 'Invalid deadline_seconds');
    }
  });
});
