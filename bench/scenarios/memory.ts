import path from 'node:path';
import { CPU_IDLE_TIMEOUT_MS } from '../../src/adapters/cpu/cpu-pool.js';
import { CLI } from '../support/build.js';
import { json, sleep, type ScenarioContext } from '../support/context.js';
import { bearer, createBenchKey } from '../support/fixtures.js';
import { runLoad } from '../support/load.js';
import { describeReading, readMemory, type MemoryReading } from '../support/memory-reading.js';
import type { BenchResult } from '../support/results.js';
import { startProcess } from '../support/server.js';
import { count } from '../support/stats.js';

const REQUESTS = 20_000;
const GENERATES = 40;
/** Past the CPU pool's idle timeout, counted from the last generate, so its thread has ended. */
const REST_MARGIN_MS = 5_000;

const PROBE = path.join(import.meta.dirname, '../support/memory-probe.mjs');

/**
 * Scenario 5: resident memory of the server process idle, 2 s after a mixed load, and at rest once the CPU pool's
 * thread has ended; growth would mean a leak or a cache without bound. Each figure comes with the main thread's V8
 * heap (memory-probe.mjs), and a full collection at the end tells what is live from garbage not collected yet.
 */
export async function memory({ settings, cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# 5. Memory: RSS idle, after ${count(REQUESTS)} mixed requests (+${GENERATES} generates of 256x256), and at rest`);
  const probeFile = path.join(cache.dir('memory-probe'), 'reading.json');
  const server = await startProcess(['--import', PROBE, CLI, 'serve'], { ...(await cache.copy(settings.baseImages)), MEMORY_PROBE_FILE: probeFile });
  const read = (collectFirst = false): Promise<MemoryReading> => readMemory(server.pid, probeFile, collectFirst);
  try {
    const headers = bearer(await createBenchKey(server));
    const page = await json<{ images: { id: string }[] }>(await fetch(`${server.url}/api/images?limit=1`, { headers }), 'GET /api/images');
    const id = page.images[0]?.id ?? 'missing';
    const paths = ['/api/images?limit=20', `/api/images/${id}`, '/health', '/api/models'];
    for (const path of paths) await json<unknown>(await fetch(`${server.url}${path}`, { headers }), `GET ${path}`);
    // Settle, so the figure is the process at rest rather than mid-allocation.
    await sleep(2000);
    const idle = await read();
    console.log(`  idle:      ${describeReading(idle)}`);

    let peak = idle.rss;
    const watch = setInterval(() => (peak = Math.max(peak, server.rssMb())), 200);
    let lastGenerate = Date.now();
    const generates = (async () => {
      for (let i = 0; i < GENERATES; i += 1) {
        const body = JSON.stringify({ prompt: `a harbour at dusk ${i}`, model: 'local/procedural', width: 256, height: 256 });
        await json<unknown>(
          await fetch(`${server.url}/api/generate`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body }),
          'POST /api/generate',
        );
      }
      lastGenerate = Date.now();
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
    const after = await read();
    const ratio = after.rss / idle.rss;
    console.log(`  after:     ${describeReading(after)}`);
    console.log(
      `             = ${ratio.toFixed(2)}x idle, peak ${peak.toFixed(1)} MB; ${count(load.total)} requests, non-2xx ${load.non2xx}, ${count(load.requestsPerSecond)} req/s`,
    );

    await sleep(Math.max(0, lastGenerate + CPU_IDLE_TIMEOUT_MS + REST_MARGIN_MS - Date.now()));
    const rest = await read();
    const restRatio = rest.rss / idle.rss;
    console.log(`  at rest:   ${describeReading(rest)} = ${restRatio.toFixed(2)}x idle`);
    const live = await read(true);
    console.log(`  full GC:   ${describeReading(live)}`);

    const heap = (m: MemoryReading) => `${m.heapUsed.toFixed(0)}/${m.heapTotal.toFixed(0)}`;
    return [
      {
        scenario: '5. Idle RSS (SQLite)',
        measured: `${idle.rss.toFixed(1)} MB (V8 heap ${heap(idle)} MB used/total)`,
        target: '< 150 MB',
        met: idle.rss < 150,
        details: { idle },
      },
      {
        scenario: `5. RSS 2 s after ${count(REQUESTS)} mixed requests + ${GENERATES} generates`,
        measured: `${after.rss.toFixed(1)} MB = ${ratio.toFixed(2)}x idle (V8 heap ${heap(idle)} → ${heap(after)} MB, ${after.threads - idle.threads} more threads; peak ${peak.toFixed(1)} MB; non-2xx ${load.non2xx})`,
        target: '≤ 1.5x idle',
        met: ratio <= 1.5 && load.non2xx === 0,
        details: { idle, after, peakMb: peak, ratio, load },
      },
      {
        scenario: `5. RSS at rest (${CPU_IDLE_TIMEOUT_MS / 1000} s CPU-pool idle timeout passed)`,
        measured: `${rest.rss.toFixed(1)} MB = ${restRatio.toFixed(2)}x idle (V8 heap ${heap(rest)} MB; ${rest.threads} threads; live heap after a full GC ${live.heapUsed.toFixed(1)} MB, idle ${idle.heapUsed.toFixed(1)})`,
        target: '≤ 1.5x idle',
        met: restRatio <= 1.5,
        details: { rest, live, ratio: restRatio, idleTimeoutMs: CPU_IDLE_TIMEOUT_MS },
      },
    ];
  } finally {
    await server.stop();
  }
}
