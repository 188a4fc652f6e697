import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../../src/test-support/harness.js';

/**
 * `/metrics` as Prometheus's own linter reads it (`promtool check metrics`, Debian's `prometheus` package, which
 * .ci/run installs): names, types, help texts and units as Prometheus expects them, after real traffic.
 */
const TOKEN = 'metrics-token-for-the-promtool-test-0123';
/** prom-client's default gauges whose names end in `_total` (promtool wants that for counters only). */
const KEPT_FOR_DASHBOARDS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
const missing = promtool.error !== undefined;
if (missing) console.log('promtool is not installed (apt-get install -y prometheus): `promtool check metrics` is skipped');

let h: Harness;
beforeAll(async () => {
  if (missing) return;
  h = await createHarness({ config: { metrics: { token: TOKEN } } });
});
afterAll(async () => {
  await h?.close();
});

describe.skipIf(missing)('promtool check metrics', () => {
  it('finds no problem in /metrics after a generation, an upload-free gallery read and a 404', async () => {
    expect((await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'local/procedural', width: 64, height: 64 })).status).toBe(201);
    expect((await h.call('GET', '/api/images')).status).toBe(200);
    expect((await h.call('GET', '/api/nope')).status).toBe(404);
    await h.deps.queue.drain();
    const exposition = await (await h.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    const problems = `${checked.stdout}${checked.stderr}`.split('\n').filter((line) => line.trim() !== '');
    // prom-client's default Node.js gauges keep the names the usual Node.js dashboards read, `_total` and all.
    const ours = problems.filter((line) => !KEPT_FOR_DASHBOARDS.some((name) => line.startsWith(`${name} `)));
    expect(ours).toEqual([]);
  });
});
