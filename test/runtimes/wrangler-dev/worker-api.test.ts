import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_WEBHOOK_SECRET } from '../../../src/test-support/harness.js';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../../src/test-support/webhook-receiver.js';
import { ADMIN_KEY, applyMigrations, call, startWranglerDev, tempStateDir, type WranglerDev } from './wrangler-dev.js';

/**
 * The service as `wrangler dev` runs it (workerd with local D1, R2, Queues and Durable Objects), over a real socket:
 * the same endpoints, errors, permissions, headers, batches and signed webhooks as on Node.
 */
let dev: WranglerDev;
let receiver: WebhookReceiver;

beforeAll(async () => {
  const state = tempStateDir();
  applyMigrations(state);
  dev = await startWranglerDev(state, { WEBHOOK_SECRET: TEST_WEBHOOK_SECRET });
  receiver = await startWebhookReceiver();
}, 150_000);
afterAll(async () => {
  await dev?.stop();
  await receiver?.close();
});

const json = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await response.json()) as T;
const generate = { prompt: 'a lighthouse at dusk', model: 'local/procedural', width: 256, height: 256 };

describe('imagegate on wrangler dev', () => {
  it('answers 503 saying to apply the migrations while D1 has no tables', async () => {
    const empty = await startWranglerDev(tempStateDir());
    try {
      const answer = await call(empty, 'GET', '/api/images');
      expect(answer.status).toBe(503);
      expect(await json(answer)).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: { message: expect.stringContaining('wrangler d1 migrations apply DB') },
      });
    } finally {
      await empty.stop();
    }
  }, 150_000);

  it('without ADMIN_API_KEY, logs a first admin key and says to make more over HTTP: no CLI runs on Workers', async () => {
    const state = tempStateDir();
    applyMigrations(state);
    const fresh = await startWranglerDev(state, { ADMIN_API_KEY: '' });
    try {
      // The start-up steps run with the isolate's first request.
      expect((await fetch(`${fresh.url}/health`)).status).toBe(200);
      const line = await eventually(async () =>
        fresh
          .output()
          .split('\n')
          .find((text) => text.includes('created the first admin API key')),
      );
      expect(line).toContain('Create more with: POST /api/keys with this key');
      expect(line).not.toContain('imagegate keys create');
      const secret = /"apiKey":"(igk_live_[^"]+)"/.exec(line)?.[1] ?? '';
      const created = await call(fresh, 'POST', '/api/keys', { name: 'ci', permissions: ['generate', 'read'] }, secret);
      expect(created.status).toBe(201);
    } finally {
      await fresh.stop();
    }
  }, 150_000);

  it('generates an image, stores it in R2 and serves it at its r2_url', async () => {
    const created = await call(dev, 'POST', '/api/generate', generate);
    expect(created.status).toBe(201);
    const image = await json<{ id: string; r2_url: string; width: number }>(created);
    expect(image.r2_url).toBe(`${dev.url}/files/generated/${image.id}.png`);
    const file = await fetch(image.r2_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');

    const listed = await json<{ images: { id: string }[] }>(await call(dev, 'GET', '/api/images'));
    expect(listed.images.map((row) => row.id)).toContain(image.id);
    expect((await call(dev, 'DELETE', `/api/images/${image.id}`)).status).toBe(200);
    expect((await call(dev, 'GET', `/api/images/${image.id}`)).status).toBe(404);
  });

  it('accepts a generation with Prefer: respond-async and streams its events from the Queue consumer to its image', async () => {
    const accepted = await fetch(`${dev.url}/api/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json', Prefer: 'respond-async' },
      body: JSON.stringify({ ...generate, width: 1024, height: 1024 }),
    });
    expect(accepted.status).toBe(202);
    const { id } = await json<{ id: string }>(accepted);
    expect(accepted.headers.get('location')).toBe(`/api/generations/${id}`);
    const stream = await call(dev, 'GET', `/api/generations/${id}/events`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = [...(await stream.text()).matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(['generation.queued', 'generation.started']).toContain(events[0]);
    expect(events.at(-1)).toBe('generation.completed');
    const done = await json<{ status: string; image: { id: string } }>(await call(dev, 'GET', `/api/generations/${id}`));
    expect(done).toMatchObject({ status: 'succeeded', image: { id: expect.any(String) } });
  });

  it('answers bad input with the spec error shape and a 4xx, saying what to send', async () => {
    const bad = await call(dev, 'POST', '/api/generate', { ...generate, prompt: 'x' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ code: 'INVALID_PARAMETER', error: expect.any(String), details: { field: 'prompt' } });
    const notJson = await fetch(`${dev.url}/api/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toMatchObject({ code: 'INVALID_REQUEST_BODY' });
    // Any valid spelling of the JSON media type is accepted (the Worker's request headers are immutable).
    const charset = await fetch(`${dev.url}/api/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(generate),
    });
    expect(charset.status).toBe(201);
    // PNG only here (no image library): refused before any provider is called, never a 500 after it.
    const jpeg = await call(dev, 'POST', '/api/generate', { ...generate, output_format: 'jpeg' });
    expect(jpeg.status).toBe(400);
    expect(await json(jpeg)).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { field: 'output_format', message: expect.stringContaining('send output_format png') },
    });
    // The catalogue says so first, so the web app offers no other format.
    const models = await json<{ models: { id: string; outputs: { formats: string[] } }[] }>(await call(dev, 'GET', '/api/models'));
    expect(models.models.find((model) => model.id === 'local/procedural')?.outputs.formats).toEqual(['png']);
  });

  it('refuses a missing or unknown key, and a key without the permission, with the rate-limit headers on every answer', async () => {
    expect((await fetch(`${dev.url}/api/images`)).status).toBe(401);
    expect((await call(dev, 'GET', '/api/images', undefined, 'igk_live_not_a_key_at_all_000000000000')).status).toBe(401);
    const created = await json<{ id: string; key: string }>(
      await call(dev, 'POST', '/api/keys', { name: 'reader', permissions: ['read'], plan: 'enterprise', rate_limit: 3 }),
    );
    const read = await call(dev, 'GET', '/api/images', undefined, created.key);
    expect(read.status).toBe(200);
    expect(read.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(read.headers.get('X-RateLimit-Remaining')).toBe('2');
    const refused = await call(dev, 'POST', '/api/generate', generate, created.key);
    expect(refused.status).toBe(403);
    // Counted exactly by the key's Durable Object: the third request is the last one allowed this minute.
    expect((await call(dev, 'GET', '/api/images', undefined, created.key)).status).toBe(200);
    const limited = await call(dev, 'GET', '/api/images', undefined, created.key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).not.toBeNull();
    expect((await call(dev, 'DELETE', `/api/keys/${created.id}`)).status).toBe(200);
    expect((await call(dev, 'GET', '/api/images', undefined, created.key)).status).toBe(401);
  });

  it('runs a batch through the Queue and signs its one batch.completed webhook', async () => {
    const prompts = Array.from({ length: 6 }, (_, i) => `a harbour, view ${i}`);
    const created = await call(dev, 'POST', '/api/batch/create', {
      name: 'harbour',
      prompts,
      model: 'local/procedural',
      width: 256,
      height: 256,
      webhook_url: receiver.url,
    });
    expect(created.status).toBe(201);
    const batch = await json<{ id: string }>(created);
    const [hook] = await receiver.waitFor(1, 60_000);
    const payload = JSON.parse(hook?.body ?? '{}') as { event: string; batch_id: string; completed_count: number; images: { r2_url: string }[] };
    expect(payload).toMatchObject({ event: 'batch.completed', batch_id: batch.id, completed_count: 6 });
    expect(payload.images).toHaveLength(6);
    const verified = new Webhook(TEST_WEBHOOK_SECRET).verify(hook?.body ?? '', {
      'webhook-id': String(hook?.headers['webhook-id']),
      'webhook-timestamp': String(hook?.headers['webhook-timestamp']),
      'webhook-signature': String(hook?.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ event: 'batch.completed' });
    const final = await eventually(async () => {
      const record = await json<{ status: string; completed_count: number }>(await call(dev, 'GET', `/api/batch/${batch.id}`));
      return record.status === 'completed' ? record : undefined;
    });
    expect(final.completed_count).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received.filter((received) => received.body.includes(batch.id))).toHaveLength(1);
  });

  it('speaks OpenAI Images at /v1 and MCP over stateless HTTP', async () => {
    const openai = await call(dev, 'POST', '/v1/images/generations', {
      prompt: 'a lighthouse',
      model: 'local/procedural',
      size: '256x256',
      response_format: 'url',
    });
    expect(openai.status).toBe(200);
    expect(await json(openai)).toMatchObject({ created: expect.any(Number), data: [{ url: expect.stringContaining('/files/generated/') }] });
    const unknown = await call(dev, 'POST', '/v1/images/generations', { prompt: 'a lighthouse', model: 'no/such-model' });
    expect(unknown.status).toBe(400);
    expect(await json(unknown)).toMatchObject({ error: { message: expect.any(String) } });

    const mcp = await fetch(`${dev.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
    const text = await mcp.text();
    expect(text).toContain('generate_image');
  });

  it('serves the web app from static assets and the API description from the Worker', async () => {
    const page = await fetch(`${dev.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<!doctype html>');
    const spec = await fetch(`${dev.url}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(await json(spec)).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
    // The web app offers (and checks) what the Worker decodes: PNG only, without libvips.
    expect(await json(await fetch(`${dev.url}/app/config.json`))).toMatchObject({ auth_mode: 'api_key', upload_types: ['image/png'] });
    const missing = await call(dev, 'GET', '/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ code: 'NOT_FOUND' });
  });
});
