import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout, TEST_DATABASE_URL } from '../../src/test-support/services.js';
import { eventually } from '../../src/test-support/webhook-receiver.js';
import { parseExposition, seriesOf } from '../api/observability/exposition.js';
import { adminQuery } from './deployment.js';
import { freePort, startCliProcess, startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/**
 * `imagegate worker` has no API port: with METRICS_TOKEN it serves /metrics on METRICS_PORT, counting what it runs
 * (batch prompts queued by an API process, which serves its own /metrics on its port), and without the token it
 * listens on nothing.
 */
const skip = await skipWithout('postgres');
const ADMIN = `igk_e2e_${randomBytes(8).toString('hex')}`;
const TOKEN = `metrics_${randomBytes(12).toString('hex')}`;
const database = `imagegate_metrics_${process.pid}_${randomBytes(3).toString('hex')}`;

let env: Record<string, string>;
let dataDir: string;
let metricsPort: number;
const processes: ServerProcess[] = [];

/** `authorization` null sends no Authorization header. */
const scrape = (port: number, path = '/metrics', authorization: string | null = `Bearer ${TOKEN}`) =>
  fetch(`http://127.0.0.1:${port}${path}`, { headers: authorization === null ? {} : { Authorization: authorization } });

describe.skipIf(skip)('metrics of a worker process', () => {
  beforeAll(async () => {
    await adminQuery(`create database "${database}"`);
    const dbUrl = new URL(TEST_DATABASE_URL);
    dbUrl.pathname = `/${database}`;
    dataDir = tempDataDir();
    metricsPort = await freePort();
    env = { DATABASE_URL: dbUrl.toString(), DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN, WORKER_CONCURRENCY: '1' };
  }, 30_000);

  afterAll(async () => {
    await Promise.all(processes.map((process_) => process_.stop('SIGKILL')));
    await adminQuery(`drop database if exists "${database}" with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('serves on METRICS_PORT, with the token only, what the worker ran and the queues as they are', async () => {
    const worker = await startCliProcess(['worker'], { ...env, METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) }, 'imagegate worker started');
    processes.push(worker);
    expect(worker.output()).toContain('metrics served');
    const api = await startServerProcess({ ...env, METRICS_TOKEN: TOKEN }, ['--no-workers']);
    processes.push(api);

    const res = await fetch(`${api.url}/api/batch/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompts: ['a windmill', 'a lighthouse'], model: 'local/procedural', width: 64, height: 64 }),
    });
    expect(res.status).toBe(201);

    const generations = await eventually(async () => {
      const body = await (await scrape(metricsPort)).text();
      const series = seriesOf(parseExposition(body), 'imagegate_generations_total');
      return series['model=local/procedural outcome=succeeded provider=local'] === 2 ? series : undefined;
    }, 30_000);
    expect(generations).toEqual({ 'model=local/procedural outcome=succeeded provider=local': 2 });

    // The images' thumbnails are jobs of their own, queued once each image is recorded: the queues empty a moment later.
    const emptied = { 'queue=generation': 0, 'queue=thumbnails': 0, 'queue=batch-item': 0, 'queue=webhook': 0 };
    const ok = await eventually(async () => {
      const res = await scrape(metricsPort);
      const text = await res.text();
      const depths = Object.entries(seriesOf(parseExposition(text), 'imagegate_queue_depth'));
      return depths.length === Object.keys(emptied).length && depths.every(([, depth]) => depth === 0) ? { res, text } : undefined;
    }, 30_000);
    expect(ok.res.status).toBe(200);
    expect(ok.res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseExposition(ok.text);
    expect(seriesOf(samples, 'imagegate_queue_depth')).toEqual(emptied);
    expect(seriesOf(samples, 'imagegate_cost_usd_total')).toEqual({ 'model=local/procedural': 0 });
    expect(samples.some((sample) => sample.name === 'process_resident_memory_bytes')).toBe(true);
    // The API process served the request, so the worker has no HTTP series.
    expect(seriesOf(samples, 'imagegate_http_requests_total')).toEqual({});

    // The API process serves its own at /metrics on its port: the request it answered, no generation.
    const fromApi = parseExposition(await (await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text());
    expect(seriesOf(fromApi, 'imagegate_http_requests_total')).toEqual({ 'method=POST route=/api/batch/generate status=201': 1 });
    expect(seriesOf(fromApi, 'imagegate_generations_total')).toEqual({});

    const missing = await scrape(metricsPort, '/metrics', null);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: 'Invalid metrics token', code: 'UNAUTHORIZED' });
    expect((await scrape(metricsPort, '/metrics', `Bearer ${ADMIN}`)).status).toBe(401);
    const elsewhere = await scrape(metricsPort, '/api/images');
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ code: 'NOT_FOUND' });

    expect(await worker.stop('SIGTERM')).toBe(0);
    await expect(scrape(metricsPort)).rejects.toThrow();
  }, 90_000);

  it('listens on no port without METRICS_TOKEN', async () => {
    const port = await freePort();
    const worker = await startCliProcess(['worker'], { ...env, METRICS_PORT: String(port) }, 'imagegate worker started');
    processes.push(worker);
    expect(worker.output()).toContain('imagegate worker started');
    expect(worker.output()).not.toContain('metrics served');
    await expect(scrape(port)).rejects.toThrow();
  }, 60_000);
});
