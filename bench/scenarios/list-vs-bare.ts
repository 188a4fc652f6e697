import path from 'node:path';
import { ROOT } from '../support/build.js';
import type { ScenarioContext } from '../support/context.js';
import { backendLabel, bearer, createBenchKey } from '../support/fixtures.js';
import { runLoad, type LoadResult } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startImagegate, startProcess } from '../support/server.js';
import { count } from '../support/stats.js';

const PATH = '/api/images?limit=20';

async function measure(label: string, url: string, headers: Record<string, string>, duration: number): Promise<LoadResult> {
  // A short untimed run first, so both processes are measured with their hot paths compiled.
  await runLoad({ url, connections: 10, duration: 2, headers });
  const result = await runLoad({ url, connections: 10, duration, headers });
  console.log(`  ${label.padEnd(22)} ${count(result.requestsPerSecond).padStart(7)} req/s, p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
  return result;
}

/** Scenario 1: the full stack (auth, rate limit, database) against Hono alone, both real processes, autocannon -c10. */
export async function listVsBare({ settings, cache, backend }: ScenarioContext): Promise<BenchResult[]> {
  const label = backendLabel(backend);
  console.log(`\n# 1. GET ${PATH} vs bare Hono (${label}, ${count(settings.baseImages)} images, -c10, ${settings.duration} s each)`);
  const { env } = await cache.get(backend, settings.baseImages);
  const server = await startImagegate(env);
  const bare = await startProcess(['--import', 'tsx', path.join(ROOT, 'bench/bare-hono.ts')], {});
  try {
    const key = await createBenchKey(server);
    const [realBody, bareBody] = await Promise.all([
      fetch(`${server.url}${PATH}`, { headers: bearer(key) }).then((r) => r.text()),
      fetch(`${bare.url}${PATH}`).then((r) => r.text()),
    ]);
    console.log(`  body sizes: imagegate ${realBody.length} B, bare ${bareBody.length} B`);
    const real = await measure('imagegate', `${server.url}${PATH}`, bearer(key), settings.duration);
    const floor = await measure('bare Hono', `${bare.url}${PATH}`, {}, settings.duration);
    const ratio = real.requestsPerSecond / floor.requestsPerSecond;
    return [
      {
        scenario: `1. List page vs bare Hono (${label})`,
        measured: `${count(real.requestsPerSecond)} vs ${count(floor.requestsPerSecond)} req/s = ${ratio.toFixed(2)}x (non-2xx ${real.non2xx} / ${floor.non2xx})`,
        target: '≥ 0.6x',
        met: ratio >= 0.6 && real.non2xx === 0,
        details: { imagegate: real, bare: floor, ratio, bodyBytes: { imagegate: realBody.length, bare: bareBody.length } },
      },
    ];
  } finally {
    await Promise.all([server.stop(), bare.stop()]);
  }
}
