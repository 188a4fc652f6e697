import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { openAiSuccess } from '../../src/adapters/providers/openai/openai.fake.js';
import { startLoopbackServer, type LoopbackServer } from '../../src/test-support/loopback-server.js';
import { ROOT } from '../support/build.js';
import { sleep, type ScenarioContext } from '../support/context.js';
import { RESULTS_DIR, type BenchResult } from '../support/results.js';
import { ADMIN_KEY, startImagegate, type BenchServer } from '../support/server.js';
import { ms, percentile } from '../support/stats.js';

/** A real photograph (a film still that ships with autocannon, a dev dependency), as a provider's 1024x1024 PNG. */
const PHOTO = path.join(ROOT, 'node_modules/autocannon/test/j5.jpeg');
const SEQUENTIAL = 40;

/**
 * The provider's answer: the photograph cropped to 1024x1024 and encoded as PNG (about 2 MB, 2.6 MB as base64). Checked,
 * so the scenario never measures a flat colour, which would compress to a few kilobytes and hide what a real answer costs.
 */
export async function photoPng(): Promise<Buffer> {
  const png = await sharp(PHOTO).resize(1024, 1024, { fit: 'cover' }).png().toBuffer();
  const [{ width, height }, { channels }] = await Promise.all([sharp(png).metadata(), sharp(png).stats()]);
  if (width !== 1024 || height !== 1024 || png.length < 1024 * 1024 || channels.some((channel) => channel.stdev < 20)) {
    throw new Error(
      `the bench's provider PNG is not a 1024x1024 photograph (${width}x${height}, ${png.length} bytes, stdev ${channels.map((c) => c.stdev.toFixed(0)).join('/')})`,
    );
  }
  return png;
}

const OVERHEAD_SCENARIO = 'Generate overhead: POST /api/generate minus the provider alone (1024² photo PNG, one connection)';
const OVERHEAD_TARGET_MS = 5;

/** The overhead of the last run recorded in bench/results/latest.json, to print beside this one; undefined when it has none. */
function recordedOverhead(): { ms: number; at: string } | undefined {
  const file = path.join(RESULTS_DIR, 'latest.json');
  if (!fs.existsSync(file)) return undefined;
  const run = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    startedAt?: string;
    results?: { scenario: string; details?: { gatewayMs?: number[]; directMs?: number[] } }[];
  };
  const details = run.results?.find((result) => result.scenario === OVERHEAD_SCENARIO)?.details;
  if (details?.gatewayMs === undefined || details.directMs === undefined) return undefined;
  return { ms: median(details.gatewayMs) - median(details.directMs), at: run.startedAt ?? 'unknown date' };
}
const WARMUP = 5;
const CONNECTIONS = 8;
const ROUNDS = 6;
const SLOW_PROVIDER_MS = 200;
const SLOW_PER_CONNECTION = 5;

const headers = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };
const generateBody = (i: number) => JSON.stringify({ prompt: `a lighthouse in a storm, take ${i}`, model: 'openai/gpt-image-2' });

/** The OpenAI fake of the provider tests on loopback, answering with the photo after `delayMs` (at once for 0). */
export async function startPhotoProvider(png: Buffer, delayMs: number): Promise<LoopbackServer> {
  const answer = openAiSuccess(png.toString('base64'));
  return startLoopbackServer(async (request, response, server) => {
    if (delayMs > 0) await sleep(delayMs);
    await answer(request, response, server);
  });
}

/** One call and its milliseconds; throws unless it answered `status`. The body is read whole, as a client would. */
async function timed(url: string, init: RequestInit, status: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (res.status !== status) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}, not ${status}`);
  return performance.now() - started;
}

export const viaGateway = (server: BenchServer, i: number) => timed(`${server.url}/api/generate`, { method: 'POST', headers, body: generateBody(i) }, 201);
const direct = (provider: LoopbackServer, i: number) =>
  timed(
    `${provider.origin}/v1/images/generations`,
    {
      method: 'POST',
      headers: { Authorization: 'Bearer sk-bench', 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-2', prompt: `take ${i}`, size: '1024x1024' }),
    },
    200,
  );

const median = (samples: readonly number[]) => percentile(samples, 50);
const mean = (samples: readonly number[]) => samples.reduce((sum, value) => sum + value, 0) / samples.length;

async function withServer<T>(
  dataDir: string,
  png: Buffer,
  delayMs: number,
  env: Record<string, string>,
  body: (server: BenchServer, provider: LoopbackServer) => Promise<T>,
): Promise<T> {
  const provider = await startPhotoProvider(png, delayMs);
  const server = await startImagegate({ DATA_DIR: dataDir, OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: provider.origin, ...env });
  try {
    return await body(server, provider);
  } finally {
    await server.stop();
    await provider.close();
  }
}

/** `connections` clients, each sending `perConnection` generates one after another; every latency and the wall time. */
async function concurrent(server: BenchServer, connections: number, perConnection: number): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      for (let i = 0; i < perConnection; i += 1) latencies.push(await viaGateway(server, c * 1000 + i));
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

/**
 * Scenario `generate` (issue 38): a real photographic 1024x1024 PNG answered at once by a loopback provider.
 * (a) What `POST /api/generate` adds to the provider call alone, one connection, calls interleaved side by side;
 * (b) eight connections at once: all answered, p99 against the mean; (c) a 200 ms provider at eight connections
 * with PROVIDER_MAX_CONCURRENCY at its default of 4 and at 16.
 */
export async function generate({ cache }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# Generate: a 1024x1024 photo PNG from a loopback provider`);
  const before = recordedOverhead();
  const png = await photoPng();
  console.log(`  provider's PNG: ${(png.length / 1024).toFixed(0)} KiB`);

  const { overheads, gatewayMs, directMs, burst } = await withServer(cache.dir('generate-fast'), png, 0, {}, async (server, provider) => {
    for (let i = 0; i < WARMUP; i += 1) await Promise.all([viaGateway(server, -1 - i), direct(provider, -1 - i)]);
    const gateway: number[] = [];
    const alone: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i += 1) {
      // Alternated, so a slow moment of the shared machine falls on both.
      alone.push(await direct(provider, i));
      gateway.push(await viaGateway(server, i));
    }
    // Thumbnails of the runs above are made in the background: let them finish before the burst.
    await sleep(3000);
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) rounds.push(...(await concurrent(server, CONNECTIONS, 1)).latencies);
    return { overheads: gateway.map((value, i) => value - (alone[i] ?? 0)), gatewayMs: gateway, directMs: alone, burst: rounds };
  });
  const overhead = median(gatewayMs) - median(directMs);
  console.log(
    `  (a) provider alone ${ms(median(directMs))}, through POST /api/generate ${ms(median(gatewayMs))}: +${ms(overhead)} (median of pairs +${ms(median(overheads))})`,
  );
  const verdict = overhead <= OVERHEAD_TARGET_MS ? 'met' : 'NOT met';
  console.log(
    `      overhead now +${ms(overhead)}, ${before === undefined ? 'no earlier run in bench/results/latest.json' : `before +${ms(before.ms)} (run of ${before.at})`}; target ≤ ${OVERHEAD_TARGET_MS} ms: ${verdict}`,
  );
  const burstMean = mean(burst);
  const burstP99 = percentile(burst, 99);
  console.log(
    `  (b) ${CONNECTIONS} at once x ${ROUNDS}: ${burst.length} answered 201, mean ${ms(burstMean)}, p99 ${ms(burstP99)}, max ${ms(Math.max(...burst))}`,
  );

  const slow: Record<string, { wallMs: number; perSecond: number; p99: number }> = {};
  for (const limit of [4, 16]) {
    slow[limit] = await withServer(cache.dir(`generate-slow-${limit}`), png, SLOW_PROVIDER_MS, { PROVIDER_MAX_CONCURRENCY: String(limit) }, async (server) => {
      await viaGateway(server, -1);
      const { latencies, wallMs } = await concurrent(server, CONNECTIONS, SLOW_PER_CONNECTION);
      return { wallMs, perSecond: (latencies.length / wallMs) * 1000, p99: percentile(latencies, 99) };
    });
    console.log(
      `  (c) PROVIDER_MAX_CONCURRENCY=${limit}: ${CONNECTIONS * SLOW_PER_CONNECTION} generates in ${(slow[limit].wallMs / 1000).toFixed(2)} s = ${slow[limit].perSecond.toFixed(1)}/s, p99 ${ms(slow[limit].p99)}`,
    );
  }
  const four = slow[4];
  const sixteen = slow[16];
  if (four === undefined || sixteen === undefined) throw new Error('no slow-provider run');
  return [
    {
      scenario: OVERHEAD_SCENARIO,
      measured: `+${ms(overhead)} (medians of ${SEQUENTIAL}: ${ms(median(gatewayMs))} vs ${ms(median(directMs))}; median of pairs +${ms(median(overheads))})${before === undefined ? '' : `; the run before: +${ms(before.ms)}`}`,
      target: `≤ ${OVERHEAD_TARGET_MS} ms`,
      met: overhead <= OVERHEAD_TARGET_MS,
      details: { gatewayMs, directMs },
    },
    {
      scenario: `Generate, ${CONNECTIONS} connections at once (x${ROUNDS}): every request answered, p99 vs mean`,
      measured: `${burst.length}/${CONNECTIONS * ROUNDS} answered; p99 ${ms(burstP99)} = ${(burstP99 / burstMean).toFixed(2)}x mean ${ms(burstMean)}`,
      target: '≤ 2x',
      met: burst.length === CONNECTIONS * ROUNDS && burstP99 <= 2 * burstMean,
      details: { latencies: burst },
    },
    {
      scenario: `Generate, ${SLOW_PROVIDER_MS} ms provider at ${CONNECTIONS} connections: PROVIDER_MAX_CONCURRENCY 4 (default) vs 16`,
      measured: `${four.perSecond.toFixed(1)}/s vs ${sixteen.perSecond.toFixed(1)}/s (p99 ${ms(four.p99)} vs ${ms(sixteen.p99)}): the default gives ${(four.perSecond / sixteen.perSecond).toFixed(2)} of the throughput`,
      target: 'noted',
      met: true,
      details: { four, sixteen },
    },
  ];
}
