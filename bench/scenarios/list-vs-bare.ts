import type autocannon from 'autocannon';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/build.js';
import { encodeCursor } from '../../src/domain/images/image-cursor.js';
import type { ImagePosition } from '../../src/ports/database.js';
import { json, type ScenarioContext } from '../support/context.js';
import { backendLabel, bearer, createBenchKey } from '../support/fixtures.js';
import { runLoad, type LoadResult } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startImagegate, startProcess, type BenchServer } from '../support/server.js';
import { count } from '../support/stats.js';

const PATH = '/api/images?limit=20';

async function measure(label: string, url: string, headers: Record<string, string>, duration: number, paths?: string[]): Promise<LoadResult> {
  // One sequence shared by all connections: every request takes the next path, so none repeats within a cycle.
  let next = 0;
  const requests =
    paths === undefined
      ? undefined
      : [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => ({ ...request, path: paths[next++ % paths.length] }) }];
  // A short untimed run first, so both processes are measured with their hot paths compiled.
  await runLoad({ url, connections: 10, duration: 2, headers, requests });
  const result = await runLoad({ url, connections: 10, duration, headers, requests });
  console.log(
    `  ${label.padEnd(22)} ${count(result.requestsPerSecond).padStart(7)} req/s, p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  return result;
}

/** Where every image of the gallery sits, newest first, walked 100 at a time. */
async function allPositions(url: string, key: string): Promise<ImagePosition[]> {
  const positions: ImagePosition[] = [];
  let cursor: string | null = null;
  do {
    const page: { images: ImagePosition[]; pagination: { next_cursor: string | null } } = await json(
      await fetch(`${url}/api/images?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`, { headers: bearer(key) }),
      'GET /api/images',
    );
    positions.push(...page.images.map(({ created_at, id }) => ({ created_at, id })));
    cursor = page.pagination.next_cursor;
  } while (cursor !== null);
  return positions;
}

/** The mean of rounds: requests summed over the runs' time, worst p99, non-2xx and errors summed. */
function combine(results: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    requestsPerSecond: sum((r) => r.requestsPerSecond) / results.length,
    total: sum((r) => r.total),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    latencyP50: Math.max(...results.map((r) => r.latencyP50)),
    latencyP99: Math.max(...results.map((r) => r.latencyP99)),
    statusCodes: {},
  };
}

/** Scenario 1: the full stack (auth, rate limit, database) against Hono alone, both real processes, autocannon -c10. */
export async function listVsBare({ settings, cache, backend }: ScenarioContext): Promise<BenchResult[]> {
  const label = backendLabel(backend);
  console.log(`\n# 1. GET ${PATH} vs bare Hono (${label}, ${count(settings.baseImages)} images, -c10, ${settings.duration} s each)`);
  const { env } = await cache.get(backend, settings.baseImages);
  const server = await startImagegate(env);
  let bare: BenchServer | undefined;
  try {
    const key = await createBenchKey(server);
    // The floor answers imagegate's own first page, byte for byte: the ratio then measures only what imagegate adds.
    const pageFile = path.join(cache.dir('page'), 'page.json');
    fs.writeFileSync(pageFile, await fetch(`${server.url}${PATH}`, { headers: bearer(key) }).then((r) => r.text()));
    bare = await startProcess(['--import', 'tsx', path.join(ROOT, 'bench/bare-hono.ts')], { BENCH_PAGE_FILE: pageFile });
    const [realBody, bareBody] = await Promise.all([
      fetch(`${server.url}${PATH}`, { headers: bearer(key) }).then((r) => r.text()),
      fetch(`${bare.url}${PATH}`).then((r) => r.text()),
    ]);
    if (realBody !== bareBody) throw new Error(`the floor's page differs from imagegate's (${bareBody.length} vs ${realBody.length} B)`);
    console.log(`  body: ${realBody.length} B from both`);
    // Two rounds alternated, so a slow spell of the shared machine lands on both sides.
    const rounds: [LoadResult, LoadResult][] = [];
    for (let round = 0; round < 2; round += 1) {
      rounds.push([
        await measure('imagegate', `${server.url}${PATH}`, bearer(key), settings.duration),
        await measure('bare Hono', `${bare.url}${PATH}`, {}, settings.duration),
      ]);
    }
    const real = combine(rounds.map(([r]) => r));
    const floor = combine(rounds.map(([, b]) => b));
    const ratio = real.requestsPerSecond / floor.requestsPerSecond;
    // The same route where no page repeats soon enough to be kept: a page after each image (a cursor per image, so
    // more pages than a process keeps), taken in turn. What a page costs when it has to be read, mapped and
    // serialised. For information, no target.
    const cursors = (await allPositions(server.url, key)).slice(0, -20).map((position) => `${PATH}&cursor=${encodeCursor(position)}`);
    const cold = await measure('imagegate, each page new', `${server.url}${PATH}`, bearer(key), settings.duration, cursors);
    const coldRatio = cold.requestsPerSecond / floor.requestsPerSecond;
    return [
      {
        scenario: `1. List page vs bare Hono (${label})`,
        measured: `${count(real.requestsPerSecond)} vs ${count(floor.requestsPerSecond)} req/s = ${ratio.toFixed(2)}x (non-2xx ${real.non2xx} / ${floor.non2xx})`,
        target: '≥ 0.6x',
        met: ratio >= 0.6 && real.non2xx === 0,
        details: { imagegate: real, bare: floor, ratio, bodyBytes: { imagegate: realBody.length, bare: bareBody.length } },
      },
      {
        scenario: `1. List pages never read before vs bare Hono (${label})`,
        measured: `${count(cold.requestsPerSecond)} vs ${count(floor.requestsPerSecond)} req/s = ${coldRatio.toFixed(2)}x (non-2xx ${cold.non2xx})`,
        target: 'information',
        met: cold.non2xx === 0,
        details: { imagegate: cold, bare: floor, ratio: coldRatio },
      },
    ];
  } finally {
    await Promise.all([server.stop(), bare?.stop()]);
  }
}
