import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withResilience, type ResilienceOptions } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { ProviderOutcomeUnknown, type ImageProvider } from '../../../src/ports/image-provider.js';
import { createHarness, json, type Harness } from '../../../src/test-support/harness.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { sampleImages, type FakeOptions, type StartedFake } from '../../../src/test-support/fake-images.js';
import { subjects } from './subjects.js';

describe.each(subjects)('$name adapter behind the resilience layer', (subject) => {
  let fake: StartedFake | undefined;
  let proxy: FaultProxy | undefined;
  let h: Harness | undefined;
  let clock = 0;
  /** What the wrapped provider last threw, as the domain received it (its HTTP mapping is the domain's business). */
  let thrown: unknown;

  async function start(
    overrides: Partial<ResilienceOptions> = {},
    fakeOptions: FakeOptions = {},
  ): Promise<{ h: Harness; proxy: FaultProxy; fake: StartedFake }> {
    fake = await subject.startFake(fakeOptions);
    proxy = await startFaultProxy(fake.baseUrl);
    const origin = new URL(fake.baseUrl);
    const adapter = subject.create(fake.baseUrl.replace(origin.origin, proxy.url));
    const provider = withResilience(adapter, {
      timeoutMs: 5_000,
      retries: 2,
      baseDelayMs: 1,
      maxDelayMs: 5,
      maxConcurrent: 4,
      breakerThreshold: 5,
      breakerCooldownMs: 30_000,
      now: () => clock,
      ...overrides,
    });
    const recording: ImageProvider = {
      ...provider,
      generate: (request, options) =>
        provider.generate(request, options).catch((error: unknown) => {
          thrown = error;
          throw error;
        }),
    };
    h = await createHarness({ providers: { [subject.providerId]: recording } });
    return { h, proxy, fake };
  }

  beforeEach(() => {
    clock = 0;
    thrown = undefined;
  });
  afterEach(async () => {
    await h?.close();
    await proxy?.close();
    await fake?.close();
    [h, proxy, fake] = [undefined, undefined, undefined];
  });

  const generate = (h: Harness) => h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: subject.modelId });
  const expectNothingStored = async (h: Harness) => {
    expect(await h.blobs.keys()).toEqual([]);
    expect((await json(await h.call('GET', '/api/images'))).images).toEqual([]);
    expect(await json(await h.call('GET', '/api/analytics/costs'))).toMatchObject({ total_images: 0, total_cost: 0 });
  };

  it('converts a JPEG answer to a PNG and records its real pixel size', async () => {
    const { h } = await start({}, { answer: 'jpeg' });
    const res = await generate(h);
    expect(res.status).toBe(201);
    const image = await json(res);
    const meta = await sharp((await h.blobs.get(String(image.r2_key)))?.bytes).metadata();
    expect(meta.format).toBe('png');
    expect([image.width, image.height]).toEqual([meta.width, meta.height]);
    expect([image.width, image.height]).toEqual([80, 48]);
  });

  it('stores a PNG answer byte for byte', async () => {
    const { h } = await start({}, { answer: 'png' });
    const image = await json(await generate(h));
    expect(Buffer.from((await h.blobs.get(String(image.r2_key)))?.bytes ?? []).equals((await sampleImages()).png)).toBe(true);
  });

  it.each(subject.costCases)('records the cost of the settings actually used: $cost for $request', async ({ request, cost }) => {
    const { h } = await start();
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', ...request });
    expect(res.status).toBe(201);
    expect((await json(res)).cost).toBeCloseTo(cost, 12);
  });

  it('retries a 503 and then succeeds', async () => {
    const { h, proxy } = await start();
    proxy.fail(1, 503);
    expect((await generate(h)).status).toBe(201);
  });

  it("retries a 429 after the provider's Retry-After", async () => {
    const { h, proxy } = await start();
    proxy.fail(1, 429, { 'Retry-After': '0' });
    expect((await generate(h)).status).toBe(201);
  });

  it('never retries a refusal, answers 400, and stores nothing', async () => {
    const { h, proxy } = await start();
    proxy.fail(1, 400);
    const res = await generate(h);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'Image generation refused', code: 'GENERATION_REFUSED' });
    expect(proxy.count()).toBe(1);
    await expectNothingStored(h);
  });

  it('answers a provider that keeps failing with 503 and Retry-After, and leaves no record, object or cost', async () => {
    const { h, proxy } = await start();
    proxy.fail(3, 500);
    const res = await generate(h);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('30');
    expect(await json(res)).toMatchObject({
      error: 'Image provider temporarily unavailable',
      code: 'SERVICE_UNAVAILABLE',
      details: { message: expect.stringContaining('500'), retry_after: 30 },
    });
    expect(proxy.count()).toBe(3);
    await expectNothingStored(h);
  });

  it("passes on the provider's own Retry-After when it stays busy", async () => {
    const { h, proxy } = await start({ retries: 0 });
    proxy.fail(1, 429, { 'Retry-After': '7' });
    const res = await generate(h);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('7');
  });

  it('reports a request sent and never answered by the deadline as an unknown outcome, not sent again, and stores nothing', async () => {
    const { h, proxy } = await start({ timeoutMs: 200, retries: 2 });
    proxy.stall(1);
    const res = await generate(h);
    expect(res.status).toBe(504);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(await json(res)).toMatchObject({ code: 'PROVIDER_TIMEOUT', details: { outcome: 'unknown' } });
    expect(thrown).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(thrown).toMatchObject({ timedOut: true, message: expect.stringContaining('did not answer within') });
    // Sent once; ComfyUI's adapter then stops what it may have queued there (POST /interrupt, POST /queue), which is no second prompt.
    expect(proxy.sent().filter((request) => request.path !== '/interrupt' && request.path !== '/queue')).toHaveLength(1);
    expect(await h.blobs.keys()).toEqual([]);
    expect((await json(await h.call('GET', '/api/images'))).images).toEqual([]);
    // The provider may have made and billed it: the ledger keeps it as uncertain, counted at its estimate.
    const costs = await json<{ total_images: number; total_cost: number; ledger: { uncertain: { charges: number; cost: number } } }>(
      await h.call('GET', '/api/analytics/costs'),
    );
    expect(costs.total_images).toBe(0);
    // Self-hosted servers (free models) cost nothing, so they have no charges.
    const paid = h.deps.catalog.find(subject.modelId)?.pricing.kind !== 'free';
    expect(costs.ledger.uncertain.charges).toBe(paid ? 1 : 0);
    expect(costs.total_cost).toBe(costs.ledger.uncertain.cost);
  });

  it('answers 502 with a generic message when the credentials are refused, never retried', async () => {
    const { h, proxy } = await start();
    proxy.fail(1, 401);
    const res = await generate(h);
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body).toMatchObject({ error: 'Image provider unavailable', code: 'PROVIDER_UNAVAILABLE', details: { model: subject.modelId } });
    expect(JSON.stringify(body)).not.toContain('401');
    expect(proxy.count()).toBe(1);
    await expectNothingStored(h);
  });

  it('opens the breaker after repeated failures, answers fast with 503 and Retry-After, and recovers after the cooldown', async () => {
    const { h, proxy } = await start({ retries: 0, breakerThreshold: 2 });
    proxy.fail(2, 503);
    expect((await generate(h)).status).toBe(503);
    expect((await generate(h)).status).toBe(503);
    const before = proxy.count();
    clock += 10_000;
    const fast = await generate(h);
    expect(fast.status).toBe(503);
    expect(fast.headers.get('Retry-After')).toBe('20');
    expect((await json(fast)).details).toMatchObject({ message: expect.stringContaining('failing repeatedly') });
    expect(proxy.count()).toBe(before);
    clock += 20_000;
    expect((await generate(h)).status).toBe(201);
  });

  it.runIf(subject.jobs !== undefined)('never creates a second paid job when the result fetch and the download fail', async () => {
    const { h, proxy, fake } = await start();
    const jobs = subject.jobs;
    if (jobs === undefined || fake.creations === undefined) throw new Error(`${subject.name} declares jobs but its fake counts no creations`);
    proxy.failWhen(jobs.isResultFetch, 1, 503);
    proxy.failWhen(jobs.isDownload, 1, 502);
    const res = await generate(h);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    expect(fake.creations()).toBe(1);
  });
});
