/**
 * Benchmarks, run with `npm run bench`. Each prints figures measured side by side in one run and a ratio,
 * so results compare across machines; nothing here is asserted in tests.
 */
import { createCpuPool } from '../src/adapters/cpu/cpu-pool.js';
import { createProceduralProvider } from '../src/adapters/providers/procedural/procedural-provider.js';
import { createHarness } from '../src/test-support/harness.js';

async function timeIt(label: string, runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const started = performance.now();
  for (let i = 0; i < runs; i += 1) await fn();
  const ms = (performance.now() - started) / runs;
  console.log(`${label.padEnd(44)} ${ms.toFixed(2).padStart(9)} ms/op`);
  return ms;
}

async function proceduralBench(): Promise<void> {
  console.log('\n# offline model: render + PNG encode, by size');
  // One thread: the figures are one render's time, on a worker thread as the service runs it.
  const cpu = createCpuPool({ threads: 1 });
  const provider = createProceduralProvider(cpu);
  const run = (size: number) => () => provider.generate({ providerModel: 'procedural', prompt: 'a sunset over snowy mountains and a lake', width: size, height: size, seed: 1 });
  const small = await timeIt('512x512', 10, run(512));
  const large = await timeIt('2048x2048 (16x the pixels)', 3, run(2048));
  console.log(`ratio 2048/512: ${(large / small).toFixed(1)}x for 16x the pixels`);
  await cpu.close();
}

async function httpBench(): Promise<void> {
  console.log('\n# HTTP stack (app.request, SQLite in memory): a page of 20 images vs the health check');
  const h = await createHarness();
  for (let i = 0; i < 200; i += 1) {
    h.clock.advance(1000);
    await h.call('POST', '/api/generate', { prompt: `bench image ${i}`, model: 'local/procedural', width: 64, height: 64 });
  }
  const health = await timeIt('GET /health', 2000, async () => h.app.request('/health'));
  const list = await timeIt('GET /api/images?limit=20 (of 200)', 2000, () => h.call('GET', '/api/images?limit=20'));
  console.log(`ratio list/health: ${(list / health).toFixed(1)}x`);
  await h.close();
}

await proceduralBench();
await httpBench();
