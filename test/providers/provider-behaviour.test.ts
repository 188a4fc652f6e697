import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withResilience, type ResilienceOptions } from '../../src/adapters/providers/resilience/resilient-provider.js';
import { createHarness, json, type Harness } from '../../src/test-support/harness.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { subjects } from './subjects.js';

describe.each(subjects)('$name adapter behind the resilience layer', (subject) => {
  let fake: { baseUrl: string; close(): Promise<void> };
  let proxy: FaultProxy;
  let h: Harness;
  let clock = 0;

  async function start(overrides: Partial<ResilienceOptions> = {}): Promise<void> {
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
    h = await createHarness({ providers: { [subject.providerId]: provider } });
  }

  beforeEach(async () => {
    fake = await subject.startFake();
    proxy = await startFaultProxy(fake.baseUrl);
    clock = 0;
  });
  afterEach(async () => {
    await h.close();
    await proxy.close();
    await fake.close();
  });

  const generate = () => h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: subject.modelId });
  const expectNothingStored = async () => {
    expect(h.blobs.keys()).toEqual([]);
    expect((await json(await h.call('GET', '/api/images'))).images).toEqual([]);
    expect(await json(await h.call('GET', '/api/analytics/costs'))).toMatchObject({ total_images: 0, total_cost: 0 });
  };

  it('stores what the provider sends as a PNG with its real pixel size', async () => {
    await start();
    const res = await generate();
    expect(res.status).toBe(201);
    const image = await json(res);
    const meta = await sharp((await h.blobs.get(String(image.r2_key)))?.bytes).metadata();
    expect(meta.format).toBe('png');
    expect([image.width, image.height]).toEqual([meta.width, meta.height]);
  });

  it.each(subject.costCases)('records the cost of the settings actually used: $cost for $request', async ({ request, cost }) => {
    await start();
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', ...request });
    expect(res.status).toBe(201);
    expect((await json(res)).cost).toBeCloseTo(cost, 12);
  });

  it('retries a 503 and then succeeds', async () => {
    await start();
    proxy.fail(1, 503);
    expect((await generate()).status).toBe(201);
  });

  it("retries a 429 after the provider's Retry-After", async () => {
    await start();
    proxy.fail(1, 429, { 'Retry-After': '0' });
    expect((await generate()).status).toBe(201);
  });

  it('never retries a refusal, answers 400, and stores nothing', async () => {
    await start();
    proxy.fail(1, 400);
    const res = await generate();
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: 'Image generation refused', code: 'GENERATION_REFUSED' });
    expect(proxy.count()).toBe(1);
    await expectNothingStored();
  });

  it('answers a provider that keeps failing with 500 Image generation failed and leaves no record, object or cost', async () => {
    await start();
    proxy.fail(3, 500);
    const res = await generate();
    expect(res.status).toBe(500);
    expect(await json(res)).toMatchObject({ error: 'Image generation failed', code: 'GENERATION_FAILED', details: { message: expect.stringContaining('500') } });
    expect(proxy.count()).toBe(3);
    await expectNothingStored();
  });

  it('times out a provider that does not answer', async () => {
    await start({ timeoutMs: 200, retries: 0 });
    proxy.stall(1);
    const res = await generate();
    expect(res.status).toBe(500);
    expect((await json(res)).details).toMatchObject({ message: expect.stringContaining('did not answer within') });
    await expectNothingStored();
  });

  it('opens the breaker after repeated failures, answers fast, and recovers after the cooldown', async () => {
    await start({ retries: 0, breakerThreshold: 2 });
    proxy.fail(2, 503);
    expect((await generate()).status).toBe(500);
    expect((await generate()).status).toBe(500);
    const before = proxy.count();
    const fast = await generate();
    expect(fast.status).toBe(500);
    expect((await json(fast)).details).toMatchObject({ message: expect.stringContaining('failing repeatedly') });
    expect(proxy.count()).toBe(before);
    clock += 30_000;
    expect((await generate()).status).toBe(201);
  });
});
