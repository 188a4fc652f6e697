import { json, sleep, type ScenarioContext } from '../support/context.js';
import { bearer, createBenchKey } from '../support/fixtures.js';
import { runLoad } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startImagegate } from '../support/server.js';
import { count } from '../support/stats.js';

const REQUESTS = 20_000;
const GENERATES = 40;

/** Scenario 5: resident memory of the server process idle, then after a mixed load; growth would mean a leak or a cache without bound. */
export async function memory({ settings, cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# 5. Memory: RSS idle and after ${count(REQUESTS)} mixed requests (+${GENERATES} generates of 256x256)`);
  const server = await startImagegate(await cache.copy(settings.baseImages));
  try {
    const headers = bearer(await createBenchKey(server));
    const page = await json<{ images: { id: string }[] }>(await fetch(`${server.url}/api/images?limit=1`, { headers }), 'GET /api/images');
    const id = page.images[0]?.id ?? 'missing';
    const paths = ['/api/images?limit=20', `/api/images/${id}`, '/health', '/api/models'];
    for (const path of paths) await json<unknown>(await fetch(`${server.url}${path}`, { headers }), `GET ${path}`);
    // Settle, so the figure is the process at rest rather than mid-allocation.
    await sleep(2000);
    const idle = server.rssMb();
    console.log(`  idle RSS ${idle.toFixed(1)} MB`);

    let peak = idle;
    const watch = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
    const generates = (async () => {
      for (let i = 0; i < GENERATES; i += 1) {
        const body = JSON.stringify({ prompt: `a harbour at dusk ${i}`, model: 'local/procedural', width: 256, height: 256 });
        await json<unknown>(await fetch(`${server.url}/api/generate`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body }), 'POST /api/generate');
      }
    })();
    const load = await runLoad({
      url: server.url,
      connections: 10,
      amount: REQUESTS,
      headers,
      requests: paths.map((path) => ({ method: 'GET' as const, path })),
    });
    await generates;
    clearInterval(watch);
    await sleep(2000);
    const after = server.rssMb();
    const ratio = after / idle;
    console.log(`  after: RSS ${after.toFixed(1)} MB (${ratio.toFixed(2)}x idle), peak ${peak.toFixed(1)} MB; ${count(load.total)} requests, non-2xx ${load.non2xx}, ${count(load.requestsPerSecond)} req/s`);
    return [
      { scenario: '5. Idle RSS (SQLite)', measured: `${idle.toFixed(1)} MB`, target: '< 150 MB', met: idle < 150, details: { idleMb: idle } },
      {
        scenario: `5. RSS after ${count(REQUESTS)} mixed requests`,
        measured: `${after.toFixed(1)} MB = ${ratio.toFixed(2)}x idle (peak ${peak.toFixed(1)} MB; non-2xx ${load.non2xx})`,
        target: '≤ 1.5x idle',
        met: ratio <= 1.5,
        details: { idleMb: idle, afterMb: after, peakMb: peak, ratio, load },
      },
    ];
  } finally {
    await server.stop();
  }
}
