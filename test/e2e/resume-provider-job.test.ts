import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../src/test-support/webhook-receiver.js';
import { prediction, replicateFlow } from '../../src/adapters/providers/replicate/replicate.fake.js';
import { sampleImages } from '../../src/test-support/fake-images.js';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../../src/test-support/loopback-server.js';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

const KEY = 'igk_e2e_resume_key';
const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
const running: ServerProcess[] = [];
let fake: LoopbackServer | undefined;
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
  await fake?.close();
});

const isCreate = (method: string, path: string) => method === 'POST' && /^\/v1\/models\/[^/]+\/[^/]+\/predictions$/.test(path);
const isStatus = (method: string, path: string) => method === 'GET' && /^\/v1\/predictions\/[^/]+$/.test(path);

describe('a batch prompt waiting on a provider job survives kill -9', () => {
  it('resumes the same Replicate prediction after a restart instead of creating and paying for a second one', async () => {
    // Replicate's flow, except that the prediction keeps `processing` until the test lets it finish.
    let finished = false;
    const flow = replicateFlow(await sampleImages());
    fake = await startLoopbackServer((request, response, server) => {
      if (!finished && isStatus(request.method, request.path))
        return sendJson(response, 200, prediction(request.headers, request.path.split('/').pop() ?? '', 'processing'));
      return flow(request, response, server);
    });
    const creations = () => fake?.requests.filter((r) => isCreate(r.method, r.path)).length ?? 0;
    const statusChecks = () => fake?.requests.filter((r) => isStatus(r.method, r.path)).length ?? 0;

    const env = { DATA_DIR: tempDataDir(), ADMIN_API_KEY: KEY, REPLICATE_API_TOKEN: 'r8_test', REPLICATE_BASE_URL: fake.origin, BATCH_CONCURRENCY: '1' };
    const first = await startServerProcess(env);
    running.push(first);
    const res = await fetch(`${first.url}/api/batch/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'resume',
        prompts: ['a lighthouse in a storm'],
        model: 'replicate/black-forest-labs/flux-schnell',
        width: 512,
        height: 512,
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    // Polling means the prediction was created and its id is in the ledger; then the process dies mid-wait.
    await eventually(async () => (statusChecks() >= 2 ? true : undefined), 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(creations()).toBe(1);
    finished = true;

    const second = await startServerProcess(env);
    running.push(second);
    const batch = await eventually(async () => {
      const current = (await (await fetch(`${second.url}/api/batch/${id}`, { headers })).json()) as {
        status: string;
        completed_count: number;
        failed_count: number;
      };
      return current.status === 'completed' ? current : undefined;
    }, 60_000);
    expect(batch).toMatchObject({ completed_count: 1, failed_count: 0 });
    expect(creations()).toBe(1);

    const ledger = (await (await fetch(`${second.url}/api/analytics/charges`, { headers })).json()) as {
      charges: { outcome: string; provider_job_id: string | null; cost: number }[];
    };
    expect(ledger.charges).toEqual([expect.objectContaining({ outcome: 'succeeded', provider_job_id: 'pred1', cost: 0.003 })]);
  }, 120_000);
});
