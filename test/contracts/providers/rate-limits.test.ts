import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { withResilience, type ResilienceOptions } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { ProviderCircuitOpen, ProviderUnavailable, type ImageProvider, type ProviderRequest } from '../../../src/ports/image-provider.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startOpenAiFake } from '../../../src/adapters/providers/openai/openai.fake.js';
import { rejectionOf } from '../../../src/test-support/loopback-server.js';

/*
 * Issue 17, "Honest rate-limit handling": the real OpenAI adapter behind the real resilience layer, with the fault
 * proxy answering what OpenAI answers when busy. The clock and the sleep are injected, so a 10 s wait is measured,
 * not waited.
 */

const GPT_IMAGE: ProviderRequest = { providerModel: 'gpt-image-2', prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42 };

interface Rig {
  provider: ImageProvider;
  proxy: FaultProxy;
  sleeps: number[];
  generations: () => number;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function rig(overrides: Partial<ResilienceOptions> = {}): Promise<Rig> {
  const fake = await startOpenAiFake();
  const proxy = await startFaultProxy(fake.baseUrl);
  closers.push(fake.close, proxy.close);
  let clock = 0;
  const sleeps: number[] = [];
  const provider = withResilience(createOpenAiProvider({ apiKey: 'sk-test', baseUrl: proxy.url }), {
    timeoutMs: 60_000,
    retries: 2,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    maxConcurrent: 4,
    breakerThreshold: 5,
    breakerCooldownMs: 30_000,
    random: () => 0.5,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    ...overrides,
  });
  const generations = () => fake.server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations').length;
  return { provider, proxy, sleeps, generations };
}

describe('Retry-After', () => {
  it('waits the 10 s a 429 asks for, beyond the backoff cap, then generates', async () => {
    const { provider, proxy, sleeps, generations } = await rig();
    proxy.fail(1, 429, { 'Retry-After': '10' });
    await expect(provider.generate(GPT_IMAGE)).resolves.toMatchObject({ contentType: 'image/png' });
    expect(sleeps).toEqual([10_000]);
    expect(generations()).toBe(1);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const { provider, proxy, sleeps } = await rig();
    proxy.fail(1, 429, { 'Retry-After': new Date(Date.now() + 20_000).toUTCString() });
    await provider.generate(GPT_IMAGE);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(17_000);
    expect(sleeps[0]).toBeLessThanOrEqual(20_000);
  });

  it('answers at once with the 10 s to wait when the deadline is nearer than that', async () => {
    const { provider, proxy, sleeps } = await rig({ timeoutMs: 5_000 });
    proxy.fail(1, 429, { 'Retry-After': '10' });
    const error = await rejectionOf(provider.generate(GPT_IMAGE));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 10_000 });
    expect(sleeps).toEqual([]);
    expect(proxy.count()).toBe(1);
  });
});

describe('the circuit breaker and rate limits', () => {
  it('stays closed after eight 429s in a row: the next call goes through', async () => {
    const { provider, proxy, generations } = await rig({ retries: 0, breakerThreshold: 5 });
    proxy.fail(8, 429, { 'Retry-After': '1' });
    for (let i = 0; i < 8; i += 1) expect(await rejectionOf(provider.generate(GPT_IMAGE))).toMatchObject({ status: 429 });
    const next = await provider.generate(GPT_IMAGE).catch((error: unknown) => error);
    expect(next).not.toBeInstanceOf(ProviderCircuitOpen);
    expect(next).toMatchObject({ contentType: 'image/png' });
    expect(generations()).toBe(1);
  });

  it('still opens on 5xx, the provider failing', async () => {
    const { provider, proxy } = await rig({ retries: 0, breakerThreshold: 3 });
    proxy.fail(3, 500);
    for (let i = 0; i < 3; i += 1) await rejectionOf(provider.generate(GPT_IMAGE));
    expect(await rejectionOf(provider.generate(GPT_IMAGE))).toBeInstanceOf(ProviderCircuitOpen);
  });
});

describe('x-should-retry', () => {
  it('is believed when false: a 500 saying so is not retried', async () => {
    const { provider, proxy, sleeps } = await rig();
    proxy.fail(1, 500, { 'x-should-retry': 'false' });
    const error = await rejectionOf(provider.generate(GPT_IMAGE));
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 500 });
    expect(proxy.count()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('is believed when true: a 409, otherwise a refusal, is retried', async () => {
    const { provider, proxy, generations } = await rig();
    proxy.fail(1, 409, { 'x-should-retry': 'true' });
    await expect(provider.generate(GPT_IMAGE)).resolves.toMatchObject({ contentType: 'image/png' });
    expect(proxy.count()).toBe(2);
    expect(generations()).toBe(1);
  });
});
