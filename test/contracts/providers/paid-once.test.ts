import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { createReplicateProvider } from '../../../src/adapters/providers/replicate/replicate-provider.js';
import { withResilience, type ResilienceOptions } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { replicateModels } from '../../../src/adapters/providers/replicate/replicate-models.js';
import { ProviderOutcomeUnknown, ProviderUnavailable, type ImageProvider, type ProviderRequest } from '../../../src/ports/image-provider.js';
import { parametersFrom } from '../../../src/providers.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import { startOpenAiFake } from '../../../src/adapters/providers/openai/openai.fake.js';
import { startReplicateFake } from '../../../src/adapters/providers/replicate/replicate.fake.js';
import { rejectionOf } from '../../../src/test-support/loopback-server.js';

/*
 * Issue 17, "Never a second paid job": the real adapters behind the real resilience layer, over loopback HTTP, with
 * the fault proxy between them and each provider's fake, which counts what the provider would bill.
 */

const SCHNELL: ProviderRequest = { providerModel: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42 };
const GPT_IMAGE: ProviderRequest = { providerModel: 'gpt-image-2', prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42 };

const resilience = (overrides: Partial<ResilienceOptions> = {}): ResilienceOptions => ({
  timeoutMs: 10_000,
  retries: 2,
  baseDelayMs: 1,
  maxDelayMs: 5,
  maxConcurrent: 4,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  ...overrides,
});

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function replicate(
  overrides: Partial<ResilienceOptions> = {},
): Promise<{ provider: ImageProvider; proxy: FaultProxy; creations: () => number; paths: () => string[] }> {
  const fake = await startReplicateFake();
  const proxy = await startFaultProxy(fake.baseUrl);
  closers.push(fake.close, proxy.close);
  const adapter = createReplicateProvider({ apiToken: 'r8_test', baseUrl: proxy.url, pollIntervalMs: 5 }, parametersFrom(replicateModels));
  return {
    provider: withResilience(adapter, resilience(overrides)),
    proxy,
    creations: fake.creations,
    paths: () => fake.server.requests.map((r) => `${r.method} ${r.path}`),
  };
}

async function openAi(): Promise<{ provider: ImageProvider; proxy: FaultProxy; generations: () => number }> {
  const fake = await startOpenAiFake();
  const proxy = await startFaultProxy(fake.baseUrl);
  closers.push(fake.close, proxy.close);
  const generations = () => fake.server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/images/generations').length;
  return { provider: withResilience(createOpenAiProvider({ apiKey: 'sk-test', baseUrl: proxy.url }), resilience()), proxy, generations };
}

const isCreate = (method: string, path: string) => method === 'POST' && path.endsWith('/predictions');
const isStatusCheck = (method: string, path: string) => method === 'GET' && path.startsWith('/v1/predictions/');

/** A loopback port nothing listens on (bound, then closed). */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a create whose answer is lost', () => {
  it('makes exactly one Replicate prediction and reports the outcome as unknown, not sending the create again', async () => {
    const { provider, proxy, creations } = await replicate();
    proxy.dropAnswer(1, isCreate);
    const error = await rejectionOf(provider.generate(SCHNELL));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: false });
    expect(creations()).toBe(1);
  });

  it('makes exactly one OpenAI generation and reports the outcome as unknown, not paying for a second image', async () => {
    const { provider, proxy, generations } = await openAi();
    proxy.dropAnswer(1);
    const error = await rejectionOf(provider.generate(GPT_IMAGE));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(String(error)).toContain('lost the answer');
    expect(generations()).toBe(1);
  });

  it('does not send a Replicate create again after a gateway 504: the prediction may exist', async () => {
    const { provider, proxy, creations } = await replicate();
    proxy.failWhen(isCreate, 1, 504);
    const error = await rejectionOf(provider.generate(SCHNELL));
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true });
    expect(proxy.count()).toBe(1);
    expect(creations()).toBe(0);
  });
});

describe('a create the provider provably never received', () => {
  it('is sent again when the connection is refused, then reported unreachable once the retries are spent', async () => {
    const port = await deadPort();
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts += 1;
      return fetch(input, init);
    };
    const provider = withResilience(
      createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}`, fetch: counting }),
      resilience({ retries: 2 }),
    );
    const error = await rejectionOf(provider.generate(GPT_IMAGE));
    expect(attempts).toBe(3);
    expect(error).toBeInstanceOf(ProviderUnavailable);
    expect(error).toMatchObject({ status: 503, message: expect.stringContaining('ECONNREFUSED') });
  });

  it('succeeds on the retry when the provider refused the connection once', async () => {
    const port = await deadPort();
    const fake = await startOpenAiFake();
    closers.push(fake.close);
    let attempts = 0;
    // The first attempt goes to a port nothing listens on, the next to the fake: a provider back after a blip.
    const flaky: typeof fetch = (input, init) => {
      attempts += 1;
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(attempts === 1 ? url.href.replace(url.origin, `http://127.0.0.1:${port}`) : url.href, init);
    };
    const provider = withResilience(createOpenAiProvider({ apiKey: 'sk-test', baseUrl: fake.baseUrl, fetch: flaky }), resilience());
    await expect(provider.generate(GPT_IMAGE)).resolves.toMatchObject({ contentType: 'image/png' });
    expect(attempts).toBe(2);
    expect(fake.server.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(1);
  });
});

describe('an accepted job', () => {
  it('is followed to its image when its status checks fail three times with 502, with one prediction created', async () => {
    const { provider, proxy, creations } = await replicate({ retries: 2 });
    proxy.failWhen(isStatusCheck, 3, 502);
    const image = await provider.generate(SCHNELL);
    expect(image.contentType).toBe('image/png');
    expect(creations()).toBe(1);
  });

  it('is followed through status checks and a download whose answers were lost, which are safe to repeat', async () => {
    const { provider, proxy, creations, paths } = await replicate({ retries: 0 });
    proxy.dropAnswer(2, isStatusCheck);
    proxy.dropAnswer(1, (method, path) => method === 'GET' && path.startsWith('/files/'));
    await expect(provider.generate(SCHNELL)).resolves.toMatchObject({ contentType: 'image/png' });
    expect(creations()).toBe(1);
    expect(paths().filter((path) => path === 'GET /v1/predictions/pred1')).toHaveLength(3);
    expect(paths().filter((path) => path.startsWith('GET /files/'))).toHaveLength(2);
  });
});
