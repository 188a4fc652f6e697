import autocannon from 'autocannon';
import { summarize, type Summary } from './stats.js';

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  statusCodes: Record<string, number>;
}

export interface LoadOptions {
  /** Several URLs share the connections between them, round robin (connections should be a multiple of them). */
  url: string | readonly string[];
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  amount?: number;
  headers?: Record<string, string>;
  requests?: autocannon.Request[];
}

/** autocannon in this process; figures from its own histograms (req/s is the mean over the run). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  // autocannon takes an array of URLs ("More than one URL is allowed", its README) though its types say string.
  const url = options.url as string;
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.duration ?? 10,
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    headers: options.headers ?? {},
    ...(options.requests === undefined ? {} : { requests: options.requests }),
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    statusCodes,
  };
}

/** Times `count` sequential GETs (after `warmup` untimed ones); throws on a non-2xx answer, which would make the figure meaningless. */
export async function sequentialLatency(url: string, headers: Record<string, string>, count: number, warmup = 20): Promise<Summary> {
  for (let i = 0; i < warmup; i += 1) await timedGet(url, headers);
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) samples.push(await timedGet(url, headers));
  return summarize(samples);
}

export async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return elapsed;
}

/**
 * GETs of each URL fired every `everyMs` whether or not earlier ones answered, until `until` settles. A loop that
 * waits for each answer sends nothing while the server is stalled, so a 4 s stall would count as one slow sample
 * (coordinated omission); at a fixed rate it counts as every request that a client would have seen wait.
 */
export async function sampleAtRate(urls: readonly string[], headers: Record<string, string>, everyMs: number, until: Promise<unknown>): Promise<number[][]> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => undefined);
  const samples = urls.map((): number[] => []);
  const pending: Promise<void>[] = [];
  while (!done) {
    for (const [i, url] of urls.entries()) pending.push(timedGet(url, headers).then((elapsed) => void samples[i]?.push(elapsed)));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  await Promise.all(pending);
  return samples;
}
