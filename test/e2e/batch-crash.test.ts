import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '../../src/test-support/webhook-receiver.js';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const KEY = 'igk_e2e_batch_key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const running: ServerProcess[] = [];
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
  await receiver?.close();
});

interface Batch {
  status: string;
  completed_count: number;
  failed_count: number;
  items: { image_id: string; status: string }[];
  images: { id: string }[];
}

describe('a batch survives kill -9', () => {
  it('finishes after a restart with every image exactly once and one logical webhook', async () => {
    receiver = await startWebhookReceiver();
    const dataDir = tempDataDir();
    const env = { DATA_DIR: dataDir, ADMIN_API_KEY: KEY, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', BATCH_CONCURRENCY: '1' };
    const first = await startServerProcess(env);
    running.push(first);

    const prompts = Array.from({ length: 6 }, (_, i) => `a mountain lake at dawn, view ${i}`);
    const res = await fetch(`${first.url}/api/batch/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'crash test', prompts, model: 'local/procedural', width: 1536, height: 1536, webhook_url: receiver.url }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const read = async (url: string) => (await (await fetch(`${url}/api/batch/${id}`, { headers })).json()) as Batch;

    await eventually(async () => ((await read(first.url)).completed_count >= 2 ? true : undefined), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = (await fs.promises.readdir(path.join(dataDir, 'blobs', 'generated'))).length;
    expect(atKill).toBeLessThan(6);

    const second = await startServerProcess(env);
    running.push(second);
    const batch = await eventually(async () => {
      const current = await read(second.url);
      return current.status === 'completed' ? current : undefined;
    }, 30_000);
    expect(batch).toMatchObject({ completed_count: 6, failed_count: 0 });
    expect(new Set(batch.images.map((image) => image.id))).toEqual(new Set(batch.items.map((item) => item.image_id)));

    const list = (await (await fetch(`${second.url}/api/images?limit=100`, { headers })).json()) as { pagination: { total: number } };
    expect(list.pagination.total).toBe(6);
    const files = (await fs.promises.readdir(path.join(dataDir, 'blobs', 'generated'))).filter((name) => name.endsWith('.png'));
    expect(files.sort()).toEqual(batch.items.map((item) => `${item.image_id}.png`).sort());

    const hooks = await receiver.waitFor(1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(new Set(hooks.map((hook) => hook.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(hooks[0]?.body ?? '{}')).toMatchObject({ event: 'batch.completed', completed_count: 6, failed_count: 0 });
  }, 90_000);
});
