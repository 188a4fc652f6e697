/**
 * CPU profile of `imagegate serve` under one of the bench's loads, aggregated by function:
 *
 *   npx tsx bench/profile.ts batch            the batch of scenario 4 (100 prompts × 200 ms, concurrency 4)
 *   npx tsx bench/profile.ts list [seconds]   GET /api/images?limit=20 at -c10 on 1,000 images (scenario 1's load)
 *   npx tsx bench/profile.ts generate [count] POST /api/generate one after another, the photo PNG of scenario `generate`
 *   npx tsx bench/profile.ts report <file>    aggregates a .cpuprofile written earlier
 *
 * The server runs under `node --cpu-prof`, is stopped with SIGTERM (V8 writes the profile on a clean exit), and
 * the self time of its main thread is printed, top 25 (PROFILE_TOP to change), merged by function and place.
 * Only the samples taken while the load ran count (start-up and shutdown are left out): V8's profile and this
 * process read the same monotonic clock. PROFILE_DIR keeps the .cpuprofile files (default: a temporary folder,
 * printed), which `report` reads whole. Set DATABASE_URL=postgres://…
 * to profile the list path on PostgreSQL. Nothing is written under bench/results.
 */
import fs from 'node:fs';
import path from 'node:path';
import { batchEnv, runBatch, startSlowProvider } from './scenarios/batch-wall.js';
import { photoPng, startPhotoProvider, viaGateway } from './scenarios/generate.js';
import { CLI, ensureBuilt } from './support/build.js';
import { formatSummary, monotonicUs, readProfile, type Window } from './support/cpu-profile.js';
import { bearer, createBenchKey, SeedCache, type Backend } from './support/fixtures.js';
import { runLoad } from './support/load.js';
import { startProcess, tempDir, type BenchServer } from './support/server.js';
import { count } from './support/stats.js';

const [mode = '', arg] = process.argv.slice(2);
const top = Number(process.env.PROFILE_TOP ?? 25);

if (mode === 'report') {
  if (arg === undefined) throw new Error('usage: bench/profile.ts report <file.cpuprofile>');
  console.log(formatSummary(readProfile(arg), top));
} else if (mode === 'batch' || mode === 'list' || mode === 'generate') {
  ensureBuilt();
  const dir = process.env.PROFILE_DIR ?? tempDir(`profile-${mode}`);
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  const profiled = (env: Record<string, string>): Promise<BenchServer> => startProcess(['--cpu-prof', `--cpu-prof-dir=${dir}`, CLI, 'serve'], env);
  const window =
    mode === 'batch'
      ? await profileBatch(profiled)
      : mode === 'generate'
        ? await profileGenerate(profiled, Number(arg ?? 40))
        : await profileList(profiled, Number(arg ?? 10));
  // One file per thread that ran JS: the main thread's is the largest (the CPU pool's workers write theirs too).
  const written = fs.readdirSync(dir).filter((file) => file.endsWith('.cpuprofile') && !before.has(file));
  const files = written.map((file) => path.join(dir, file)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (files[0] === undefined) throw new Error(`no .cpuprofile was written in ${dir}`);
  console.log(`\nprofiles in ${dir}: ${files.map((file) => path.basename(file)).join(', ')}\nmain thread (${path.basename(files[0])}), while the load ran:`);
  console.log(formatSummary(readProfile(files[0], window), top));
} else {
  throw new Error(`usage: bench/profile.ts batch | list [seconds] | generate [count] | report <file>; got ${JSON.stringify(mode)}`);
}

async function profileBatch(start: (env: Record<string, string>) => Promise<BenchServer>): Promise<Window> {
  const fake = await startSlowProvider();
  const cache = new SeedCache();
  const server = await start(batchEnv(cache.dir('profile-batch'), fake.origin));
  try {
    const fromUs = monotonicUs();
    const { batch, apiMs, idealMs } = await runBatch(server);
    const toUs = monotonicUs();
    console.log(
      `  ${batch.status}: ${batch.completed_count} ok, ${batch.failed_count} failed in ${(apiMs / 1000).toFixed(3)} s by the API (+${(((apiMs - idealMs) / idealMs) * 100).toFixed(1)}% over ideal)`,
    );
    return { fromUs, toUs };
  } finally {
    await server.stop();
    await fake.close();
    await cache.cleanup();
  }
}

async function profileGenerate(start: (env: Record<string, string>) => Promise<BenchServer>, calls: number): Promise<Window> {
  const provider = await startPhotoProvider(await photoPng(), 0);
  const cache = new SeedCache();
  const server = await start({ DATA_DIR: cache.dir('profile-generate'), OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: provider.origin });
  try {
    for (let i = 0; i < 5; i += 1) await viaGateway(server, -1 - i);
    const fromUs = monotonicUs();
    const times: number[] = [];
    for (let i = 0; i < calls; i += 1) times.push(await viaGateway(server, i));
    const toUs = monotonicUs();
    times.sort((a, b) => a - b);
    console.log(
      `  ${calls} generates one after another, median ${(times[Math.floor(calls / 2)] ?? 0).toFixed(1)} ms each (thumbnail jobs run in the window too)`,
    );
    return { fromUs, toUs };
  } finally {
    await server.stop();
    await provider.close();
    await cache.cleanup();
  }
}

async function profileList(start: (env: Record<string, string>) => Promise<BenchServer>, seconds: number): Promise<Window> {
  const url = process.env.DATABASE_URL;
  const backend: Backend = url !== undefined && /^postgres(ql)?:\/\//.test(url) ? { kind: 'postgres', url } : { kind: 'sqlite' };
  const cache = new SeedCache();
  try {
    const { env } = await cache.get(backend, 1_000);
    const server = await start(env);
    try {
      const key = await createBenchKey(server);
      const target = `${server.url}/api/images?limit=20`;
      // Warm first, as scenario 1 does; only the measured run counts.
      await runLoad({ url: target, connections: 10, duration: 2, headers: bearer(key) });
      const fromUs = monotonicUs();
      const result = await runLoad({ url: target, connections: 10, duration: seconds, headers: bearer(key) });
      const toUs = monotonicUs();
      console.log(`  ${backend.kind}: ${count(result.requestsPerSecond)} req/s, p50 ${result.latencyP50} ms, non-2xx ${result.non2xx}`);
      return { fromUs, toUs };
    } finally {
      await server.stop();
    }
  } finally {
    await cache.cleanup();
  }
}
