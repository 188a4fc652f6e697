import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, json, TEST_KEY, type Harness } from '../../../src/test-support/harness.js';
import { countingStandIn } from '../../../src/test-support/stand-in-provider.js';
import { as, createKeyFor } from '../keys/key-helpers.js';
import { parseExposition, seriesOf, type Sample } from './exposition.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const PROMPT = 'a lighthouse on a cliff at dawn';
/** $0.003 a picture (the stand-in draws it offline). */
const PAID_MODEL = 'replicate/black-forest-labs/flux-schnell';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const scrape = (harness: Harness, authorization?: string) =>
  Promise.resolve(harness.app.request('/metrics', { headers: authorization === undefined ? {} : { Authorization: authorization } }));

async function scraped(harness: Harness): Promise<Sample[]> {
  const res = await scrape(harness, `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(await res.text());
}

describe('/metrics', () => {
  it('counts known traffic exactly: requests by route template, generations, cost, budget and rate-limit refusals, queues', async () => {
    const standIn = countingStandIn();
    h = await createHarness({ config: { metrics: { token: TOKEN } }, providers: { replicate: standIn.provider } });
    for (let i = 0; i < 3; i += 1)
      expect((await h.call('POST', '/api/generate', { prompt: `${PROMPT} ${i}`, model: 'local/procedural', width: 256, height: 256 })).status).toBe(201);
    expect((await h.call('GET', '/api/nope')).status).toBe(404);
    const tiny = await createKeyFor(h, { name: 'tiny budget', permissions: ['generate', 'read'], daily_budget_usd: 0.001 });
    expect((await as(h, tiny.key, 'POST', '/api/generate', { prompt: PROMPT, model: PAID_MODEL, width: 256, height: 256 })).status).toBe(402);
    const limited = await createKeyFor(h, { name: 'one a minute', permissions: ['read'], plan: 'enterprise', rate_limit: 1 });
    expect((await as(h, limited.key, 'GET', '/api/models')).status).toBe(200);
    expect((await as(h, limited.key, 'GET', '/api/models')).status).toBe(429);
    expect(standIn.calls()).toBe(0);
    // The thumbnails of the three images are jobs of their own, made after the answers: done before the scrape.
    await h.deps.queue.drain();

    const samples = await scraped(h);
    expect(seriesOf(samples, 'imagegate_http_requests_total')).toEqual({
      'method=POST route=/api/generate status=201': 3,
      'method=GET route=unmatched status=404': 1,
      'method=POST route=/api/keys status=201': 2,
      'method=POST route=/api/generate status=402': 1,
      'method=GET route=/api/models status=200': 1,
      'method=GET route=/api/models status=429': 1,
    });
    expect(seriesOf(samples, 'imagegate_http_request_duration_seconds_count')).toEqual({
      'method=POST route=/api/generate': 4,
      'method=GET route=unmatched': 1,
      'method=POST route=/api/keys': 2,
      'method=GET route=/api/models': 2,
    });
    expect(seriesOf(samples, 'imagegate_generations_total')).toEqual({ 'model=local/procedural outcome=succeeded provider=local': 3 });
    expect(seriesOf(samples, 'imagegate_provider_duration_seconds_count')).toEqual({ 'model=local/procedural provider=local': 3 });
    expect(seriesOf(samples, 'imagegate_cost_usd_total')).toEqual({ 'model=local/procedural': 0 });
    expect(seriesOf(samples, 'imagegate_budget_refusals_total')).toEqual({ 'budget=daily': 1, 'budget=monthly': 0 });
    expect(seriesOf(samples, 'imagegate_rate_limit_refusals_total')).toEqual({ 'limiter=key': 1, 'limiter=failed_auth': 0 });
    expect(seriesOf(samples, 'imagegate_webhook_deliveries_total')).toEqual({
      'outcome=delivered': 0,
      'outcome=retrying': 0,
      'outcome=failed': 0,
      'outcome=stopped': 0,
    });
    expect(seriesOf(samples, 'imagegate_queue_depth')).toEqual({ 'queue=generation': 0, 'queue=thumbnails': 0, 'queue=batch-item': 0, 'queue=webhook': 0 });
    expect(seriesOf(samples, 'imagegate_queue_oldest_job_age_seconds')).toEqual({
      'queue=generation': 0,
      'queue=thumbnails': 0,
      'queue=batch-item': 0,
      'queue=webhook': 0,
    });
    // Node's and the process's own, for the usual dashboards.
    expect(samples.some((sample) => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((sample) => sample.name === 'nodejs_eventloop_lag_seconds')).toBe(true);

    // The scrape itself is a request like any other, counted once it is answered.
    expect(seriesOf(await scraped(h), 'imagegate_http_requests_total')).toMatchObject({ 'method=GET route=/metrics status=200': 1 });
  });

  it('never puts an image or key id, a secret or a prompt in a label', async () => {
    h = await createHarness({ config: { metrics: { token: TOKEN } } });
    const image = await json<{ id: string }>(await h.call('POST', '/api/generate', { prompt: PROMPT, model: 'local/procedural', width: 256, height: 256 }));
    expect((await h.call('GET', `/api/images/${image.id}`)).status).toBe(200);
    expect((await h.call('GET', '/api/images/img_doesnotexist')).status).toBe(404);
    const key = await createKeyFor(h, { name: 'k', permissions: ['manage'] });
    expect((await h.call('DELETE', `/api/keys/${key.id}`)).status).toBe(200);
    expect((await h.app.request(`/no/such/${image.id}/${encodeURIComponent(PROMPT)}`)).status).toBe(404);

    const samples = await scraped(h);
    const values = samples.flatMap((sample) => Object.values(sample.labels));
    for (const value of values) {
      expect(value).not.toMatch(/img_|key_|igk_|lighthouse/);
      expect(value).not.toContain(TOKEN);
    }
    expect(seriesOf(samples, 'imagegate_http_requests_total')).toMatchObject({
      'method=GET route=/api/images/:id status=200': 1,
      'method=GET route=/api/images/:id status=404': 1,
      'method=DELETE route=/api/keys/:id status=200': 1,
      'method=GET route=unmatched status=404': 1,
    });
  });

  it('answers 401 in the API error shape without the token or with a wrong one, and is outside the API keys and their limits', async () => {
    h = await createHarness({ config: { metrics: { token: TOKEN } } });
    const missing = await scrape(h);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await json(missing)).toMatchObject({
      error: 'Invalid metrics token',
      code: 'UNAUTHORIZED',
      details: { message: 'send Authorization: Bearer <METRICS_TOKEN>' },
    });
    // An API key, even the admin's, is not the metrics token; many wrong tries never turn into the failed-auth 429.
    for (const wrong of [`Bearer ${TEST_KEY}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await scrape(h, wrong);
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    for (let i = 0; i < 25; i += 1) expect((await scrape(h, 'Bearer guess')).status).toBe(401);
    expect((await scrape(h, `bearer ${TOKEN}`)).status).toBe(200);
    expect(seriesOf(await scraped(h), 'imagegate_rate_limit_refusals_total')).toEqual({ 'limiter=key': 0, 'limiter=failed_auth': 0 });
  });

  it('is an unknown path (404) when METRICS_TOKEN is unset, whatever the request carries, and nothing is recorded', async () => {
    h = await createHarness();
    for (const authorization of [undefined, `Bearer ${TOKEN}`, `Bearer ${TEST_KEY}`]) {
      const res = await scrape(h, authorization);
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ error: 'Not found', code: 'NOT_FOUND', details: { path: '/metrics' } });
    }
    expect((await h.deps.metrics.scrape()).body).toBe('');
  });
});
