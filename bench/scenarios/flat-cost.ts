import { json, type ScenarioContext } from '../support/context.js';
import { backendLabel, bearer, createBenchKey } from '../support/fixtures.js';
import { sequentialLatency } from '../support/load.js';
import type { BenchResult } from '../support/results.js';
import { startImagegate } from '../support/server.js';
import { count, ms, type Summary } from '../support/stats.js';

const SAMPLES = 200;

interface Page {
  images: { id: string }[];
  pagination: { total: number; next_cursor: string | null };
}

interface Figures {
  total: number;
  first: Summary;
  deep: Summary;
  byId: Summary;
  usage: Summary;
  costs: Summary;
  deepOffset: number;
}

/** Latencies of the gallery reads at one gallery size, each sampled sequentially on a warm server. */
async function figuresAt(ctx: ScenarioContext, images: number): Promise<Figures> {
  const { env } = await ctx.cache.get(ctx.backend, images);
  const server = await startImagegate(env);
  try {
    const headers = bearer(await createBenchKey(server));
    const get = async (path: string) => json<Page>(await fetch(`${server.url}${path}`, { headers }), `GET ${path}`);
    const firstPage = await get('/api/images?limit=20');
    // Cursors must chain: walk a few pages through next_cursor before jumping deep.
    let cursor = firstPage.pagination.next_cursor;
    for (let i = 0; i < 5 && cursor !== null; i += 1) cursor = (await get(`/api/images?limit=20&cursor=${encodeURIComponent(cursor)}`)).pagination.next_cursor;
    // 90% down the list: one slow offset read hands over the next_cursor of a page that deep, as a client paging there holds.
    const deepOffset = Math.floor(images * 0.9);
    const deepStart = await get(`/api/images?limit=1&offset=${deepOffset}`);
    const deepCursor = deepStart.pagination.next_cursor;
    const deepId = deepStart.images[0]?.id;
    if (deepCursor === null || deepId === undefined) throw new Error(`no cursor at offset ${deepOffset}`);
    const at = (path: string) => sequentialLatency(`${server.url}${path}`, headers, SAMPLES);
    const figures: Figures = {
      total: firstPage.pagination.total,
      first: await at('/api/images?limit=20'),
      deep: await at(`/api/images?limit=20&cursor=${encodeURIComponent(deepCursor)}`),
      byId: await at(`/api/images/${deepId}`),
      usage: await at('/api/analytics/usage'),
      costs: await at('/api/analytics/costs'),
      deepOffset,
    };
    const line = (name: string, s: Summary) => console.log(`  ${count(images).padStart(9)} ${name.padEnd(26)} p50 ${ms(s.p50)}, p99 ${ms(s.p99)}`);
    line('first page', figures.first);
    line(`page at ${count(deepOffset)} (cursor)`, figures.deep);
    line('GET /api/images/:id', figures.byId);
    line('/api/analytics/usage', figures.usage);
    line('/api/analytics/costs', figures.costs);
    console.log(`  ${count(images).padStart(9)} pagination.total = ${count(figures.total)}`);
    return figures;
  } finally {
    await server.stop();
  }
}

/** Scenario 2: the same reads at a small and a large gallery of one user; flat means the large one costs about the same. */
export async function flatCost(ctx: ScenarioContext): Promise<BenchResult[]> {
  const label = backendLabel(ctx.backend);
  const large = ctx.backend.kind === 'postgres' ? ctx.settings.pgImages : ctx.settings.images;
  const small = ctx.settings.baseImages;
  console.log(`\n# 2. Flat cost: ${count(small)} vs ${count(large)} images (${label}), p50 of ${SAMPLES} sequential requests`);
  const a = await figuresAt(ctx, small);
  const b = await figuresAt(ctx, large);
  const seedSeconds = (await ctx.cache.get(ctx.backend, large)).seconds;
  const sizes = `${shortCount(small)} vs ${shortCount(large)}`;
  const compare = (name: string, pick: (f: Figures) => Summary): BenchResult => {
    const ratio = pick(b).p50 / pick(a).p50;
    return {
      scenario: `2. ${name}, ${sizes} (${label})`,
      measured: `p50 ${ms(pick(a).p50)} vs ${ms(pick(b).p50)} = ${ratio.toFixed(2)}x`,
      target: '≤ 2x',
      met: ratio <= 2,
      details: { small: pick(a), large: pick(b), ratio },
    };
  };
  const under = (name: string, pick: (f: Figures) => Summary): BenchResult => ({
    scenario: `2. ${name} at ${shortCount(large)} (${label})`,
    measured: `p50 ${ms(pick(b).p50)} (p99 ${ms(pick(b).p99)})`,
    target: '< 50 ms',
    met: pick(b).p50 < 50,
    details: { large: pick(b), small: pick(a) },
  });
  return [
    compare('First page', (f) => f.first),
    compare(`Page at 90% depth via cursor`, (f) => f.deep),
    compare('GET /api/images/:id', (f) => f.byId),
    under('/api/analytics/usage', (f) => f.usage),
    under('/api/analytics/costs', (f) => f.costs),
    {
      scenario: `2. pagination.total (${label})`,
      measured: `${count(a.total)} / ${count(b.total)} for ${count(small)} / ${count(large)} seeded`,
      target: 'exact',
      met: a.total === small && b.total === large,
      details: { small: a.total, large: b.total, seedSeconds, seedPerSecond: large / seedSeconds },
    },
  ];
}

const shortCount = (n: number): string =>
  n >= 1_000_000 && n % 1_000_000 === 0 ? `${n / 1_000_000}M` : n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : count(n);
