import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createPrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';
import { CircuitBreaker } from '../../../src/adapters/providers/resilience/circuit-breaker.js';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { ProviderOutcomeUnknown, ProviderRefusal, ProviderUnavailable, type ImageProvider } from '../../../src/ports/image-provider.js';
import { buildNodeProviderSet } from '../../../src/runtimes/node/providers.js';
import { closeAfterEach } from '../../../src/test-support/close-after-each.js';
import { createHarness, type Harness } from '../../../src/test-support/harness.js';
import { countingStandIn } from '../../../src/test-support/stand-in-provider.js';
import { eventually, startWebhookReceiver } from '../../../src/test-support/webhook-receiver.js';
import { parseExposition, seriesOf, type Sample } from './exposition.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
/** $0.003 a picture. */
const PAID_MODEL = 'replicate/black-forest-labs/flux-schnell';

const closing = closeAfterEach();

async function scraped(harness: Harness): Promise<Sample[]> {
  const res = await harness.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

/** Replicate, answering each call as scripted: drawn offline, refused, down, or lost after sending. */
function scriptedProvider(script: ('ok' | 'refuse' | 'down' | 'lost')[]): ImageProvider {
  const real = countingStandIn().provider;
  return {
    id: 'replicate',
    async generate(request, options) {
      switch (script.shift()) {
        case 'refuse':
          throw new ProviderRefusal('the prompt was flagged');
        case 'down':
          throw new ProviderUnavailable('replicate answered 503', 503);
        case 'lost':
          throw new ProviderOutcomeUnknown('the connection was reset after the request was sent', false);
        default:
          return real.generate(request, options);
      }
    },
  };
}

describe('metrics of the domain', () => {
  it('counts each way a provider call ends, and the cost each was settled at in the ledger', async () => {
    const h = closing(
      await createHarness({ config: { metrics: { token: TOKEN } }, providers: { replicate: scriptedProvider(['ok', 'refuse', 'down', 'lost']) } }),
    );
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await h.call('POST', '/api/generate', { prompt: 'a harbour', model: PAID_MODEL, width: 256, height: 256 })).status);
    expect(statuses).toEqual([201, 400, 503, 502]);

    const samples = await scraped(h);
    const labels = `model=${PAID_MODEL}`;
    expect(seriesOf(samples, 'imagegate_generations_total')).toEqual({
      [`${labels} outcome=succeeded provider=replicate`]: 1,
      [`${labels} outcome=refused provider=replicate`]: 1,
      [`${labels} outcome=unavailable provider=replicate`]: 1,
      [`${labels} outcome=uncertain provider=replicate`]: 1,
    });
    expect(seriesOf(samples, 'imagegate_provider_duration_seconds_count')).toEqual({ [`${labels} provider=replicate`]: 4 });
    // The image made, and the lost answer at its estimate (it may have been billed); the refusal and the outage cost nothing.
    expect(seriesOf(samples, 'imagegate_cost_usd_total')[labels]).toBeCloseTo(0.006, 9);
  });

  it('counts webhook delivery attempts by what they led to', async () => {
    const receiver = closing(await startWebhookReceiver());
    receiver.respondWith([500]);
    const h = closing(await createHarness({ config: { metrics: { token: TOKEN } }, batch: { retryScheduleSeconds: [0, 5] } }));
    expect(
      (await h.call('POST', '/api/batch/generate', { prompts: ['a kite'], model: 'local/procedural', width: 64, height: 64, webhook_url: receiver.url }))
        .status,
    ).toBe(201);
    const deliveries = async () => seriesOf(await scraped(h), 'imagegate_webhook_deliveries_total');
    await eventually(async () => ((await deliveries())['outcome=retrying'] === 1 ? true : undefined));
    h.clock.advance(5_000);
    await eventually(async () => ((await deliveries())['outcome=delivered'] === 1 ? true : undefined));
    expect(await deliveries()).toEqual({ 'outcome=delivered': 1, 'outcome=retrying': 1, 'outcome=failed': 0, 'outcome=stopped': 0 });
  });

  it('reads the queues at scrape time: waiting jobs and how long the oldest has waited, by the service clock', async () => {
    const h = closing(await createHarness({ config: { metrics: { token: TOKEN } }, workers: false }));
    expect((await h.call('POST', '/api/batch/generate', { prompts: ['one', 'two', 'three'], model: 'local/procedural', width: 64, height: 64 })).status).toBe(
      201,
    );
    h.clock.advance(30_000);
    const samples = await scraped(h);
    expect(seriesOf(samples, 'imagegate_queue_depth')).toEqual({ 'queue=generation': 0, 'queue=thumbnails': 0, 'queue=batch-item': 3, 'queue=webhook': 0 });
    expect(seriesOf(samples, 'imagegate_queue_oldest_job_age_seconds')).toEqual({
      'queue=generation': 0,
      'queue=thumbnails': 0,
      'queue=batch-item': 30,
      'queue=webhook': 0,
    });
  });

  it('reports every remote provider breaker: 0 closed, 2 open, 1 half-open once the cooldown has passed', async () => {
    const metrics = createPrometheusMetrics({ logger: pino({ level: 'silent' }) });
    const circuit = async () => seriesOf(parseExposition((await metrics.scrape()).body), 'imagegate_provider_circuit_state');
    // Every configured remote provider has one from the start; the offline one has none.
    buildNodeProviderSet(loadConfig({ OPENAI_API_KEY: 'sk-test' }), { metrics });
    expect(await circuit()).toEqual({ 'provider=openai': 0 });

    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 1_000, now: () => now, report: { provider: 'fal', metrics } });
    breaker.failed();
    expect((await circuit())['provider=fal']).toBe(0);
    breaker.failed();
    expect((await circuit())['provider=fal']).toBe(2);
    now += 1_000;
    expect((await circuit())['provider=fal']).toBe(1);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.succeeded();
    expect(await circuit()).toEqual({ 'provider=openai': 0, 'provider=fal': 0 });
  });
});
