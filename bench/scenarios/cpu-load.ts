import { json, type ScenarioContext } from '../support/context.js';
import { bearer, createBenchKey } from '../support/fixtures.js';
import { sampleAtRate, sequentialLatency } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startImagegate } from '../support/server.js';
import { count, ms, summarize } from '../support/stats.js';

const RENDERS = 8;
const SIZE = 2048; // local/procedural's max_width and max_height
/** Each endpoint is asked this often during the renders, answered or not (see sampleAtRate). */
const SAMPLE_EVERY_MS = 25;

/** Scenario 3: how long the cheap endpoints wait while the offline model renders big images in the same process. */
export async function cpuLoad({ settings, cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(
    `\n# 3. /health and GET /api/images, each every ${SAMPLE_EVERY_MS} ms, while ${RENDERS} renders of ${SIZE}x${SIZE} run (local/procedural, SQLite)`,
  );
  const server = await startImagegate(await cache.copy(settings.baseImages));
  try {
    const headers = bearer(await createBenchKey(server));
    const urls = [`${server.url}/health`, `${server.url}/api/images?limit=20`];
    const idle = await Promise.all(urls.map(async (url) => sequentialLatency(url, headers, 100)));
    const started = performance.now();
    const renders = Promise.all(
      Array.from({ length: RENDERS }, async (_, i) => {
        const response = await fetch(`${server.url}/api/generate`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ prompt: `a storm over a mountain lake, render ${i}`, model: 'local/procedural', width: SIZE, height: SIZE }),
        });
        await json<unknown>(response, 'POST /api/generate');
        return performance.now() - started;
      }),
    );
    const [healthSamples = [], listSamples = []] = await sampleAtRate(urls, headers, SAMPLE_EVERY_MS, renders);
    const finished = await renders;
    const wall = Math.max(...finished);
    const health = summarize(healthSamples);
    const list = summarize(listSamples);
    console.log(`  renders done in ${(wall / 1000).toFixed(1)} s (first after ${(Math.min(...finished) / 1000).toFixed(1)} s)`);
    console.log(
      `  /health          idle p99 ${ms(idle[0]?.p99 ?? Number.NaN)}, under load p50 ${ms(health.p50)}, p99 ${ms(health.p99)}, max ${ms(health.max)} (${count(health.count)} samples)`,
    );
    console.log(
      `  GET /api/images  idle p99 ${ms(idle[1]?.p99 ?? Number.NaN)}, under load p50 ${ms(list.p50)}, p99 ${ms(list.p99)}, max ${ms(list.max)} (${count(list.count)} samples)`,
    );
    const row = (name: string, s: typeof health, before: number | undefined): BenchResult => ({
      scenario: `3. ${name} p99 during ${RENDERS} renders of ${SIZE}² (SQLite)`,
      measured: `${ms(s.p99)} (idle ${ms(before ?? Number.NaN)}; max ${ms(s.max)}, ${s.count} samples in ${(wall / 1000).toFixed(1)} s)`,
      target: '< 50 ms',
      met: s.p99 < 50,
      details: { underLoad: s, idleP99: before, rendersWallMs: wall },
    });
    return [row('/health', health, idle[0]?.p99), row('GET /api/images', list, idle[1]?.p99)];
  } finally {
    await server.stop();
  }
}
