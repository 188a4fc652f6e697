import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';
import { applyMigrations, call, startWranglerDev, tempStateDir, type WranglerDev } from './wrangler-dev.js';

/**
 * A kill -9 of `wrangler dev` (wrangler and workerd) in the middle of a batch. Its local Queues keep messages in
 * memory, so the kill loses them, which is harder than Cloudflare, where a message outlives its consumer. D1, R2 and
 * the Durable Objects are on disk. The Cron Trigger sends a message again for each job left without one, once the
 * dead consumer's claims run out (a few seconds with these provider settings), and the batch finishes.
 */
const VARS = { PROVIDER_TIMEOUT_MS: '2000', PROVIDER_RETRIES: '0' };
// Enough that a poll answered late (workerd renders the prompts on the thread that answers it) still finds the batch
// under way: with 24 on a loaded machine, the first answer came once all were done.
const PROMPTS = 48;

let dev: WranglerDev | undefined;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await dev?.stop();
  await receiver.close();
});

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

/** `eventually`, failing with what the phase waited for and the end of wrangler's output, for a run that stalls. */
async function phase<T>(what: string, running: WranglerDev, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  try {
    return await eventually(check, timeoutMs);
  } catch {
    throw new Error(`${what}: not reached in ${timeoutMs / 1000} s; wrangler's output ends:\n${running.output().slice(-4_000)}`);
  }
}
interface BatchRecord {
  status: string;
  completed_count: number;
  failed_count: number;
}

describe('a batch under wrangler dev, killed mid-way', () => {
  it('loses no image and sends one batch.completed', async () => {
    const state = tempStateDir();
    applyMigrations(state);
    dev = await startWranglerDev(state, VARS);
    const prompts = Array.from({ length: PROMPTS }, (_, i) => `a mountain lake, view ${i}`);
    const created = await call(dev, 'POST', '/api/batch/create', {
      name: 'killed',
      prompts,
      model: 'local/procedural',
      width: 1024,
      height: 1024,
      webhook_url: receiver.url,
    });
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);
    const running = dev;
    const before = await phase(
      '2 prompts completed before the kill',
      running,
      async () => {
        const record = await json<BatchRecord>(await call(running, 'GET', `/api/batch/${id}`));
        return record.completed_count >= 2 ? record : undefined;
      },
      120_000,
    );
    expect(before.completed_count).toBeLessThan(PROMPTS);
    await dev.kill();

    dev = await startWranglerDev(state, VARS);
    const restarted = dev;
    // Until it completes, the Cron Trigger, as Cloudflare would fire it every few minutes.
    const after = await phase(
      'the batch completed after the restart',
      restarted,
      async () => {
        await fetch(`${restarted.url}/__scheduled`);
        const record = await json<BatchRecord>(await call(restarted, 'GET', `/api/batch/${id}`));
        if (record.status === 'completed') return record;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        return undefined;
      },
      240_000,
    );
    expect(after, restarted.output()).toMatchObject({ completed_count: PROMPTS, failed_count: 0 });

    const [hook] = await receiver.waitFor(1, 30_000);
    const payload = JSON.parse(hook?.body ?? '{}') as { event: string; images: { id: string; r2_url: string }[] };
    expect(payload.event).toBe('batch.completed');
    expect(new Set(payload.images.map((image) => image.id)).size).toBe(PROMPTS);
    for (const image of payload.images) expect((await fetch(image.r2_url)).status).toBe(200);
    const gallery = await json<{ pagination: { total: number } }>(await call(restarted, 'GET', '/api/images?limit=1'));
    expect(gallery.pagination.total).toBe(PROMPTS);

    // Another sweep sends nothing more.
    await fetch(`${restarted.url}/__scheduled`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(receiver.received.filter((received) => received.body.includes(id))).toHaveLength(1);
  }, 600_000);
});
