import { openAiSuccess } from '../../test/providers/fakes/openai-fake.js';
import { sampleImages } from '../../test/providers/fakes/sample-images.js';
import { startLoopbackServer } from '../../test/providers/loopback-server.js';
import { json, sleep, type ScenarioContext } from '../support/context.js';
import type { BenchResult } from '../support/results.js';
import { ADMIN_KEY, startImagegate } from '../support/server.js';
import { count } from '../support/stats.js';

const PROMPTS = 100;
const PROVIDER_MS = 200;
const CONCURRENCY = 4;
const IDEAL_MS = Math.ceil(PROMPTS / CONCURRENCY) * PROVIDER_MS;

interface Batch {
  id: string;
  status: string;
  completed_count: number;
  failed_count: number;
  created_at: string;
  finished_at: string | null;
}

/**
 * Scenario 4: a batch on a provider that always takes 200 ms (the OpenAI fake of the provider tests, on loopback,
 * answering late) has an ideal wall time of prompts / concurrency * 200 ms; the rest is the queue's overhead.
 */
export async function batchWall({ cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# 4. Batch of ${PROMPTS} prompts, provider ${PROVIDER_MS} ms, concurrency ${CONCURRENCY}: ideal ${IDEAL_MS / 1000} s`);
  const images = await sampleImages();
  const answer = openAiSuccess(images.png.toString('base64'));
  const fake = await startLoopbackServer(async (request, response, server) => {
    await sleep(PROVIDER_MS);
    await answer(request, response, server);
  });
  const server = await startImagegate({
    DATA_DIR: cache.dir('batch'),
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: fake.origin,
    BATCH_CONCURRENCY: String(CONCURRENCY),
    PROVIDER_MAX_CONCURRENCY: String(CONCURRENCY),
  });
  try {
    const headers = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };
    const prompts = Array.from({ length: PROMPTS }, (_, i) => `a lighthouse in a storm, variation ${i}`);
    const started = performance.now();
    const created = await json<Batch>(
      await fetch(`${server.url}/api/batch/create`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', prompts, model: 'openai/gpt-image-2' }) }),
      'POST /api/batch/create',
    );
    let batch = created;
    let lastShown = -1;
    // Polling every 10 ms adds at most that much to the client's figure; the API's own timestamps carry none.
    while (batch.status === 'queued' || batch.status === 'processing') {
      await sleep(10);
      batch = await json<Batch>(await fetch(`${server.url}/api/batch/${created.id}`, { headers }), 'GET /api/batch/:id');
      const done = batch.completed_count + batch.failed_count;
      if (done - lastShown >= 25) {
        console.log(`  batch ${done}/${PROMPTS} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
        lastShown = done;
      }
    }
    const polled = performance.now() - started;
    const apiMs = batch.finished_at === null ? Number.NaN : new Date(batch.finished_at).getTime() - new Date(batch.created_at).getTime();
    const overhead = (value: number) => ((value - IDEAL_MS) / IDEAL_MS) * 100;
    const generations = fake.requests.filter((r) => r.path === '/v1/images/generations').length;
    console.log(`  ${batch.status}: ${batch.completed_count} ok, ${batch.failed_count} failed; provider calls ${count(generations)}`);
    console.log(`  API created_at→finished_at ${(apiMs / 1000).toFixed(3)} s (+${overhead(apiMs).toFixed(1)}%), polled ${(polled / 1000).toFixed(3)} s (+${overhead(polled).toFixed(1)}%)`);
    return [
      {
        scenario: `4. Batch wall time, ${PROMPTS} prompts × ${PROVIDER_MS} ms at concurrency ${CONCURRENCY}`,
        measured: `${(apiMs / 1000).toFixed(2)} s by the API, ${(polled / 1000).toFixed(2)} s polled vs ideal ${IDEAL_MS / 1000} s = +${overhead(apiMs).toFixed(1)}% / +${overhead(polled).toFixed(1)}%; ${batch.failed_count} failed`,
        target: '≤ +3%',
        met: batch.status === 'completed' && batch.failed_count === 0 && overhead(apiMs) <= 3,
        details: { apiMs, polledMs: polled, idealMs: IDEAL_MS, batch, providerCalls: generations },
      },
    ];
  } finally {
    await server.stop();
    await fake.close();
  }
}
