/**
 * `npm run bench`: the performance targets of the issue, each measured side by side in one run against real
 * `imagegate serve` processes (see bench/README.md). Writes bench/results/latest.json and latest.md.
 * Nothing here is asserted in tests: figures depend on the machine, their ratios much less.
 */
import os from 'node:os';
import { batchWall } from './scenarios/batch-wall.js';
import { cpuLoad } from './scenarios/cpu-load.js';
import { flatCost } from './scenarios/flat-cost.js';
import { galleryBytes } from './scenarios/gallery-bytes.js';
import { generate } from './scenarios/generate.js';
import { listVsBare } from './scenarios/list-vs-bare.js';
import { memory } from './scenarios/memory.js';
import { scaleOut } from './scenarios/scale-out.js';
import { uploads } from './scenarios/uploads.js';
import { ensureBuilt } from './support/build.js';
import type { ScenarioContext, Settings } from './support/context.js';
import { SeedCache, type Backend } from './support/fixtures.js';
import { markdownTable, writeResults, type BenchResult } from './support/results.js';

type Scenario = (ctx: ScenarioContext) => Promise<BenchResult[]>;

function whole(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number of 1 or more, not ${JSON.stringify(raw)}`);
  return value;
}

const settings: Settings = {
  images: whole('BENCH_IMAGES', 1_000_000),
  // PostgreSQL seeds at 700 to 1,200 images/s here (SQLite about 3,500/s): 150,000 keeps its seed under 4 minutes.
  pgImages: whole('BENCH_PG_IMAGES', 150_000),
  duration: whole('BENCH_DURATION', 10),
  baseImages: 1_000,
};
const only = (process.env.BENCH_SCENARIOS ?? 'list,flat,cpu,batch,generate,memory,gallery,uploads,scale').split(',').map((name) => name.trim());
const pgUrl = process.env.DATABASE_URL;
const backends: Backend[] = [{ kind: 'sqlite' }];
if (pgUrl !== undefined && /^postgres(ql)?:\/\//.test(pgUrl)) backends.push({ kind: 'postgres', url: pgUrl });

// Scenarios 1 and 2 run on every backend; 3 to 6 measure the process, not the database, so SQLite only; 7 is the
// scale-out deployment (several API processes), which needs PostgreSQL and Redis.
const plan: [string, Scenario, Backend['kind'][]][] = [
  ['list', listVsBare, ['sqlite', 'postgres']],
  ['flat', flatCost, ['sqlite', 'postgres']],
  ['cpu', cpuLoad, ['sqlite']],
  ['batch', batchWall, ['sqlite']],
  ['generate', generate, ['sqlite']],
  ['memory', memory, ['sqlite']],
  ['gallery', galleryBytes, ['sqlite']],
  ['uploads', uploads, ['sqlite']],
  ['scale', scaleOut, ['postgres']],
];

const started = Date.now();
const notes: string[] = [];
ensureBuilt();
console.log(
  `imagegate bench: ${settings.images.toLocaleString('en-US')} images on SQLite${backends.length > 1 ? `, ${settings.pgImages.toLocaleString('en-US')} on PostgreSQL` : ' (set DATABASE_URL=postgres://… to add PostgreSQL)'}`,
);
const cache = new SeedCache();
const results: BenchResult[] = [];
try {
  for (const backend of backends) {
    for (const [name, scenario, kinds] of plan) {
      if (!only.includes(name) || !kinds.includes(backend.kind)) continue;
      try {
        results.push(...(await scenario({ settings, cache, backend })));
      } catch (error) {
        // One broken scenario should not cost the figures of the others.
        const message = error instanceof Error ? error.message : String(error);
        console.error(`scenario ${name} (${backend.kind}) failed: ${message}`);
        results.push({ scenario: `${name} (${backend.kind})`, measured: `failed: ${message.split('\n')[0] ?? ''}`, target: '-', met: false });
      }
    }
    const large = backend.kind === 'postgres' ? settings.pgImages : settings.images;
    const took = cache.seedSeconds(backend, large);
    if (took !== undefined)
      notes.push(
        `${backend.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}: seeding ${large.toLocaleString('en-US')} images took ${Math.round(took)} s (${Math.round(large / took).toLocaleString('en-US')}/s).`,
      );
  }
} finally {
  await cache.cleanup();
}

notes.push(
  `Shared ${os.cpus().length}-core machine: the load generator (autocannon) runs on the same cores as the server, as does the bare Hono process in scenario 1.`,
);
const seconds = (Date.now() - started) / 1000;
const files = writeResults(results, {
  startedAt: new Date(started).toISOString(),
  seconds,
  node: process.version,
  cpus: os.cpus().length,
  settings: { BENCH_IMAGES: settings.images, BENCH_PG_IMAGES: backends.length > 1 ? settings.pgImages : 'n/a', BENCH_DURATION: settings.duration },
  notes,
});
console.log(
  `\n${markdownTable(results)}\n\n${results.filter((r) => r.met).length} of ${results.length} met; ${Math.round(seconds)} s; wrote ${files.md} and ${files.json}`,
);
