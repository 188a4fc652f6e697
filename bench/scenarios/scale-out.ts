import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';
import { redisKeysUnder } from '../../src/test-support/redis-keys.js';
import { canConnect } from '../../src/test-support/services.js';
import { CLI } from '../support/build.js';
import type { ScenarioContext } from '../support/context.js';
import { countCpu, describeShares, type CpuShares } from '../support/cpu-usage.js';
import { bearer, createBenchKey } from '../support/fixtures.js';
import { runLoad, type LoadResult } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startProcess, type BenchServer } from '../support/server.js';
import { count } from '../support/stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = 10;
const LIST = '/api/images?limit=20';
/** The offline model at its smallest size: the cost is the generate path (auth, limits, render, store, record), not pixels. */
const GENERATE = { prompt: 'a harbour at dusk', model: 'local/procedural', width: 64, height: 64 };

async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redisKeysUnder(redis, prefix);
    for (let start = 0; start < keys.length; start += 500) await redis.unlink(...keys.slice(start, start + 500));
  } finally {
    redis.disconnect();
  }
}

interface Round {
  load: LoadResult;
  cpu: CpuShares;
}

type Roles = Parameters<typeof countCpu>[0];

interface Workload {
  name: string;
  run(targets: readonly BenchServer[], duration: number): Promise<LoadResult>;
}

const share = (round: Round, role: string): number => Math.round(round.cpu[role] ?? 0);
/** CPU time per request answered, from a share of one core (percent) and the request rate. */
const perRequest = (percent: number, r: Round): string => `${count((percent / 100 / r.load.requestsPerSecond) * 1e6)} µs`;
const where = (r: Round): string =>
  `machine ${share(r, 'machine')}% of ${availableParallelism() * 100}%: API ${share(r, 'API 1') + share(r, 'API 2')}% (${perRequest(share(r, 'API 1') + share(r, 'API 2'), r)} a request), PostgreSQL ${share(r, 'PostgreSQL')}%, Redis ${share(r, 'Redis')}%, autocannon ${share(r, 'autocannon')}%, interrupts ${share(r, 'interrupts')}%, other ${share(r, 'other')}%`;

/** Rounds alternate (one, two, one, two) after an untimed warm-up of both; the better round of each is kept. */
async function compare(workload: Workload, servers: readonly BenchServer[], roles: () => Promise<Roles>, duration: number): Promise<BenchResult> {
  const measure = async (targets: readonly BenchServer[], label: string): Promise<Round> => {
    const cpu = countCpu(await roles());
    const load = await workload.run(targets, duration);
    const shares = cpu.stop();
    console.log(
      `  ${label.padEnd(13)} ${count(load.requestsPerSecond).padStart(6)} req/s, p50 ${load.latencyP50} ms, p99 ${load.latencyP99} ms, non-2xx ${load.non2xx}, errors ${load.errors}; CPU ${describeShares(shares)}`,
    );
    return { load, cpu: shares };
  };
  console.log(`  ${workload.name}`);
  // Untimed first, so both processes are measured with their hot paths compiled and their CPU-pool threads up.
  await workload.run(servers, 2);
  const one: Round[] = [];
  const two: Round[] = [];
  for (let round = 0; round < 2; round += 1) {
    one.push(await measure(servers.slice(0, 1), 'one process'));
    two.push(await measure(servers, 'two processes'));
  }
  const best = (rounds: Round[]): Round => rounds.reduce((a, b) => (b.load.requestsPerSecond > a.load.requestsPerSecond ? b : a));
  const [a, b] = [best(one), best(two)];
  const ratio = b.load.requestsPerSecond / a.load.requestsPerSecond;
  const failures = [...one, ...two].reduce((sum, r) => sum + r.load.non2xx + r.load.errors, 0);
  // What this run itself (API, PostgreSQL, Redis, autocannon) took of the machine with one process: with every core
  // busy and each request costing as much, two processes could answer at most this many times as many.
  const cores = availableParallelism() * 100;
  const ceiling = cores / Math.max(1, (a.cpu.machine ?? 0) - (a.cpu.other ?? 0));
  console.log(
    `  two/one ${ratio.toFixed(2)}x; ceiling on ${cores / 100} cores ${ceiling.toFixed(2)}x (one process's run used ${Math.round(cores / ceiling)}% of ${cores}%)`,
  );
  return {
    scenario: `7. ${workload.name}, two API processes vs one (PostgreSQL + Redis)`,
    measured: `${count(b.load.requestsPerSecond)} vs ${count(a.load.requestsPerSecond)} req/s = ${ratio.toFixed(2)}x; the cores allow ${ceiling.toFixed(2)}x (one: ${where(a)}; two: ${where(b)}; non-2xx/errors ${failures})`,
    target: 'figure: 2x needs free cores',
    met: failures === 0,
    details: { one, two, ratio, ceiling, connections: CONNECTIONS },
  };
}

/**
 * Scenario 7: list and generate throughput of one API process (`serve --no-workers`) on PostgreSQL + Redis, then of
 * two on different ports, autocannon spreading its connections over both. Both processes run throughout (the second
 * idles while one is measured). Images go to a DATA_DIR both share, which on one machine stands for the bucket of a
 * real deployment: s3rver would be one more Node process on the same two cores. The CPU each role took says where
 * the cores went: PostgreSQL is this scenario's own backends (by application_name), Redis the whole server, `other`
 * everything else on the machine.
 */
export async function scaleOut({ settings, cache, backend }: ScenarioContext): Promise<BenchResult[]> {
  console.log(`\n# 7. Scale-out: one vs two API processes on PostgreSQL + Redis (${REDIS_URL}), -c${CONNECTIONS}, ${settings.duration} s rounds`);
  if (!(await canConnect(REDIS_URL, 6379))) {
    console.log(`  skipped: Redis is not reachable at ${REDIS_URL} (set REDIS_URL)`);
    return [];
  }
  const prefix = `bench-${process.pid}-${randomBytes(4).toString('hex')}`;
  const own = await cache.own(backend, 'scale', settings.baseImages);
  const database = new URL(own.DATABASE_URL ?? '');
  database.searchParams.set('application_name', prefix);
  const env = { ...own, DATABASE_URL: database.toString(), REDIS_URL, REDIS_PREFIX: prefix };
  const admin = new pg.Client({ connectionString: own.DATABASE_URL });
  const servers: BenchServer[] = [];
  try {
    await admin.connect();
    servers.push(...(await Promise.all([startProcess([CLI, 'serve', '--no-workers'], env), startProcess([CLI, 'serve', '--no-workers'], env)])));
    const [first, second] = servers;
    if (first === undefined || second === undefined) throw new Error('two API processes did not start');
    const headers = bearer(await createBenchKey(first));
    // The backends of this scenario's connections, read before each round (the pools grow on demand).
    const roles = async (): Promise<Roles> => ({
      'API 1': { pids: [first.pid] },
      'API 2': { pids: [second.pid] },
      PostgreSQL: {
        pids: (await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [prefix])).rows.map((row) => row.pid),
      },
      Redis: { comm: 'redis-server' },
      autocannon: { pids: [process.pid] },
    });
    const list: Workload = {
      name: `GET ${LIST}`,
      run: (targets, duration) => runLoad({ url: targets.map((server) => `${server.url}${LIST}`), connections: CONNECTIONS, duration, headers }),
    };
    const generate: Workload = {
      name: `POST /api/generate (${GENERATE.model}, ${GENERATE.width}x${GENERATE.height})`,
      run: (targets, duration) =>
        runLoad({
          url: targets.map((server) => server.url),
          connections: CONNECTIONS,
          duration,
          headers: { ...headers, 'Content-Type': 'application/json' },
          requests: [{ method: 'POST', path: '/api/generate', body: JSON.stringify(GENERATE) }],
        }),
    };
    const results = [await compare(list, servers, roles, settings.duration), await compare(generate, servers, roles, settings.duration)];
    // A process that stopped answering says why in its own output.
    if (results.some((result) => !result.met))
      for (const server of servers) console.log(`  output of API process ${server.pid}:\n${server.output().slice(-3000)}`);
    return results;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await admin.end();
    await deleteKeys(prefix);
  }
}
