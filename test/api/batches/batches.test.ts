import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { createProceduralProvider } from '../../../src/adapters/providers/procedural/procedural-provider.js';
import { createHarness, json, TEST_WEBHOOK_SECRET, testCpuPool, type Harness, type HarnessOptions } from '../../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';

let h: Harness;
let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await h.close();
  await receiver.close();
});

interface Batch {
  id: string;
  batch_id: string;
  status: string;
  total_prompts: number;
  completed_count: number;
  failed_count: number;
  images: { id: string; prompt: string; r2_url: string }[];
  errors: { index: number; error: string }[];
  items: { index: number; status: string; image_id: string }[];
  webhook: { deliveries: { id: string; status: string; attempt_count: number; attempts: { status_code: number | null; error: string | null }[] }[] };
}

const small = { model: 'local/procedural', width: 64, height: 64 };
const start = async (options: HarnessOptions = {}) => {
  h = await createHarness(options);
};
const getBatch = async (id: string) => json<Batch>(await h.call('GET', `/api/batch/${id}`));
const finished = (id: string) =>
  eventually(async () => {
    const batch = await getBatch(id);
    return batch.status === 'completed' || batch.status === 'cancelled' ? batch : undefined;
  });

describe('batches', () => {
  it.each(['/api/batch/create', '/api/batch/generate'])('%s accepts a batch (201), runs it, and sends a signed batch.completed event', async (path) => {
    await start();
    // Receivers reject timestamps more than five minutes from their own clock: sign at the real time.
    h.clock.set(new Date().toISOString());
    const res = await h.call('POST', path, { name: 'spring', prompts: ['a red fox', 'a blue whale', 'a green frog'], ...small, webhook_url: receiver.url });
    expect(res.status).toBe(201);
    const accepted = await json<Batch & Record<string, unknown>>(res);
    expect(accepted).toMatchObject({
      name: 'spring',
      model: 'local/procedural',
      status: 'queued',
      total_prompts: 3,
      completed_count: 0,
      failed_count: 0,
      webhook_url: receiver.url,
    });
    expect(accepted.id).toMatch(/^batch_/);
    expect(accepted.batch_id).toBe(accepted.id);

    const batch = await finished(accepted.id);
    expect(batch).toMatchObject({ status: 'completed', completed_count: 3, failed_count: 0 });
    expect(batch.images.map((image) => image.prompt)).toEqual(['a red fox', 'a blue whale', 'a green frog']);
    for (const image of batch.images) expect((await h.call('GET', `/api/images/${image.id}`)).status).toBe(200);

    const [hook] = await receiver.waitFor(1);
    const verified = new Webhook(TEST_WEBHOOK_SECRET).verify(hook?.body ?? '', hook?.headers as Record<string, string>);
    expect(verified).toEqual({
      event: 'batch.completed',
      batch_id: accepted.id,
      status: 'completed',
      total_prompts: 3,
      completed_count: 3,
      failed_count: 0,
      images: batch.images,
    });
    expect(hook?.headers['content-type']).toBe('application/json');
    await eventually(async () => ((await getBatch(accepted.id)).webhook.deliveries[0]?.status === 'delivered' ? true : undefined));
  });

  it('lists batches newest first and answers an unknown one with 404', async () => {
    await start();
    await h.call('POST', '/api/batch/generate', { prompts: ['one prompt'], ...small });
    const list = await json<{ batches: Batch[]; pagination: { total: number } }>(await h.call('GET', '/api/batch'));
    expect(list.pagination.total).toBe(1);
    expect(list.batches[0]?.total_prompts).toBe(1);
    const missing = await h.call('GET', '/api/batch/batch_missing');
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ error: 'Batch not found', details: { batch_id: 'batch_missing' } });
  });

  it.each([
    ['an empty prompts list', { prompts: [] }, 'prompts'],
    ['prompts that is not an array', { prompts: 'a cat' }, 'prompts'],
    ['a prompt /api/generate would refuse', { prompts: ['a fine prompt', 'no'] }, 'prompts'],
    ['a non-string prompt', { prompts: ['a fine prompt', 7] }, 'prompts.1'],
    ['more prompts than BATCH_MAX_PROMPTS', { prompts: Array.from({ length: 4 }, (_, i) => `prompt ${i}`) }, 'prompts'],
    ['a relative webhook_url', { prompts: ['a cat'], webhook_url: '/hooks' }, 'webhook_url'],
    ['an ftp webhook_url', { prompts: ['a cat'], webhook_url: 'ftp://example.com/x' }, 'webhook_url'],
  ])('refuses %s with a 400 before queueing anything', async (_case, body, field) => {
    await start({ batch: { maxPrompts: 3 } });
    const res = await h.call('POST', '/api/batch/generate', { ...small, ...body });
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ field });
    expect((await json(await h.call('GET', '/api/batch'))).pagination).toMatchObject({ total: 0 });
  });

  it('refuses an unknown model with `Invalid model`, and a missing name on /api/batch/create', async () => {
    await start();
    const model = await h.call('POST', '/api/batch/generate', { prompts: ['a cat'], model: 'acme/none' });
    expect([model.status, (await json(model)).error]).toEqual([400, 'Invalid model']);
    const unnamed = await h.call('POST', '/api/batch/create', { prompts: ['a cat'], ...small });
    expect(unnamed.status).toBe(400);
    expect((await json(unnamed)).details).toMatchObject({ field: 'name' });
  });

  it('counts a prompt whose generation fails in failed_count and reports its error', async () => {
    const procedural = createProceduralProvider(testCpuPool());
    const flaky: ImageProvider = {
      id: 'local',
      generate: async (request, options) =>
        request.prompt.includes('explode') ? Promise.reject(new Error('provider exploded')) : procedural.generate(request, options),
    };
    await start({ providers: { local: flaky } });
    const { id } = await json<Batch>(
      await h.call('POST', '/api/batch/generate', { prompts: ['a calm lake', 'please explode', 'a quiet forest'], ...small, webhook_url: receiver.url }),
    );
    const batch = await finished(id);
    expect(batch).toMatchObject({ status: 'completed', completed_count: 2, failed_count: 1 });
    expect(batch.errors).toEqual([{ index: 1, prompt: 'please explode', error: 'provider exploded' }]);
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({ status: 'completed', completed_count: 2, failed_count: 1 });
  });

  it('cancels: pending prompts are dropped, finished images stay, and batch.cancelled is sent', async () => {
    const procedural = createProceduralProvider(testCpuPool());
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The first call answers at once and every later one waits at the gate, whichever prompt the queue starts
    // first: a pulled queue (BullMQ) may hand out the prompts' jobs in any order.
    const gated: ImageProvider = {
      id: 'local',
      generate: async (request, options) => {
        calls += 1;
        if (calls > 1) await gate;
        return procedural.generate(request, options);
      },
    };
    await start({ providers: { local: gated }, batch: { concurrency: 1 } });
    const { id } = await json<Batch>(
      await h.call('POST', '/api/batch/generate', { prompts: ['first prompt', 'second prompt', 'third prompt'], ...small, webhook_url: receiver.url }),
    );
    // One prompt has finished, one is running (held by the gate) and one is still pending.
    const statuses = async () => (await getBatch(id)).items.map((item) => item.status);
    await eventually(async () => {
      const now = await statuses();
      return now.includes('succeeded') && now.includes('running') ? true : undefined;
    });

    // Cancel takes no input, so it needs no body (curl -X POST with nothing else).
    const res = await h.call('POST', `/api/batch/${id}/cancel`);
    expect(res.status).toBe(200);
    expect((await json(res)).status).toBe('cancelled');
    release();
    await h.drainJobs();

    const batch = await getBatch(id);
    expect(batch.status).toBe('cancelled');
    expect(batch.items.map((item) => item.status).sort()).toEqual(['cancelled', 'succeeded', 'succeeded']);
    expect(batch.images).toHaveLength(2);
    expect(calls).toBe(2);
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({ event: 'batch.cancelled', status: 'cancelled', total_prompts: 3 });
    expect((await h.call('POST', `/api/batch/${id}/cancel`, {})).status).toBe(409);
  });

  it('runs at most BATCH_CONCURRENCY prompts at once', async () => {
    const procedural = createProceduralProvider(testCpuPool());
    let running = 0;
    let peak = 0;
    const counting: ImageProvider = {
      id: 'local',
      generate: async (request, options) => {
        running += 1;
        peak = Math.max(peak, running);
        // Long enough for a second worker slot to pick up its job even on a loaded machine (BullMQ fetches over Redis).
        await new Promise((resolve) => setTimeout(resolve, 150));
        running -= 1;
        return procedural.generate(request, options);
      },
    };
    await start({ providers: { local: counting }, batch: { concurrency: 2 } });
    const { id } = await json<Batch>(
      await h.call('POST', '/api/batch/generate', { prompts: Array.from({ length: 8 }, (_, i) => `prompt number ${i}`), ...small }),
    );
    await finished(id);
    expect(peak).toBe(2);
  });

  it('lets a generate-only key create and read its batches but not cancel others', async () => {
    await start();
    const created = await json<{ key: string }>(await h.call('POST', '/api/keys', { name: 'gen', permissions: ['generate'] }));
    const auth = { Authorization: `Bearer ${created.key}`, 'Content-Type': 'application/json' };
    const res = await h.app.request('/api/batch/generate', { method: 'POST', headers: auth, body: JSON.stringify({ prompts: ['a cat'], ...small }) });
    expect(res.status).toBe(201);
    const { id } = await json<Batch>(res);
    expect((await h.app.request(`/api/batch/${id}`, { headers: auth })).status).toBe(200);
    expect((await h.app.request('/api/webhooks/secret', { headers: auth })).status).toBe(403);
  });

  it('shows the signing secret to a manage key', async () => {
    await start();
    expect(await json(await h.call('GET', '/api/webhooks/secret'))).toEqual({ secret: TEST_WEBHOOK_SECRET });
  });
});
