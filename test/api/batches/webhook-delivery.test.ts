import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_WEBHOOK_SECRET, type Harness } from '../../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';

let h: Harness;
let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  h = await createHarness({ batch: { retryScheduleSeconds: [0, 5, 300] } });
});
afterEach(async () => {
  await h.close();
  await receiver.close();
});

interface Delivery {
  id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: { attempt: number; at: string; status_code: number | null; error: string | null }[];
}

async function runBatch(): Promise<string> {
  const res = await h.call('POST', '/api/batch/generate', {
    prompts: ['a lighthouse'],
    model: 'local/procedural',
    width: 64,
    height: 64,
    webhook_url: receiver.url,
  });
  return String((await json(res)).id);
}
const delivery = async (batchId: string) =>
  (await json<{ webhook: { deliveries: Delivery[] } }>(await h.call('GET', `/api/batch/${batchId}`))).webhook.deliveries[0];
const attemptsReach = (batchId: string, count: number) =>
  eventually(async () => {
    const d = await delivery(batchId);
    return d !== undefined && d.attempt_count >= count ? d : undefined;
  });

describe('webhook delivery', () => {
  it('retries a failing receiver on the schedule with the same webhook-id and a fresh timestamp and signature', async () => {
    receiver.respondWith([500, 503]);
    const batchId = await runBatch();
    const first = await attemptsReach(batchId, 1);
    expect(first).toMatchObject({ status: 'pending', next_attempt_at: '2026-11-20T10:00:05.000Z' });

    h.clock.advance(5_000);
    const second = await attemptsReach(batchId, 2);
    expect(second.next_attempt_at).toBe('2026-11-20T10:05:05.000Z');
    h.clock.advance(300_000);
    const third = await attemptsReach(batchId, 3);
    expect(third.status).toBe('delivered');
    expect(third.attempts.map((a) => a.status_code)).toEqual([500, 503, 200]);

    const hooks = await receiver.waitFor(3);
    expect(new Set(hooks.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
    expect(new Set(hooks.map((hook) => hook.headers['webhook-timestamp'])).size).toBe(3);
    expect(new Set(hooks.map((hook) => hook.headers['webhook-signature'])).size).toBe(3);
    expect(new Set(hooks.map((hook) => hook.body)).size).toBe(1);
    const verifier = new Webhook(TEST_WEBHOOK_SECRET);
    const last = hooks[2];
    // The receiver checks freshness against its own clock; the test clock is fixed, so verify the signature itself.
    const signed = verifier.sign(String(last?.headers['webhook-id']), new Date(Number(last?.headers['webhook-timestamp']) * 1000), last?.body ?? '');
    expect(last?.headers['webhook-signature']).toBe(signed);
  });

  it('gives up after the last attempt of the schedule', async () => {
    receiver.respondWith([500, 500, 500]);
    const batchId = await runBatch();
    await attemptsReach(batchId, 1);
    h.clock.advance(5_000);
    await attemptsReach(batchId, 2);
    h.clock.advance(300_000);
    const last = await attemptsReach(batchId, 3);
    expect(last).toMatchObject({ status: 'failed', next_attempt_at: null });
  });

  it('stops at 410 Gone', async () => {
    receiver.respondWith([410]);
    const batchId = await runBatch();
    const d = await attemptsReach(batchId, 1);
    expect(d).toMatchObject({ status: 'stopped', next_attempt_at: null });
    h.clock.advance(10_000);
    await h.drainJobs();
    expect(receiver.received).toHaveLength(1);
  });

  it('never follows a redirect: a 3xx is a failed attempt', async () => {
    receiver.respondWith([302]);
    const batchId = await runBatch();
    const d = await attemptsReach(batchId, 1);
    expect(d.attempts[0]).toMatchObject({ status_code: 302, error: 'answered 302' });
    expect(d.status).toBe('pending');
    expect(receiver.received.map((hook) => hook.path)).toEqual(['/hooks/imagegate']);
  });

  it('records a connection failure as an attempt with its error', async () => {
    await receiver.close();
    const batchId = await runBatch();
    const d = await attemptsReach(batchId, 1);
    expect(d.attempts[0]?.status_code).toBeNull();
    expect(d.attempts[0]?.error).toMatch(/ECONNREFUSED|fetch failed|Network connection lost/);
    receiver = await startWebhookReceiver();
  });
});
