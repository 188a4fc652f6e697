import { afterEach, describe, expect, it } from 'vitest';
import { createReplicateProvider } from '../../../src/adapters/providers/replicate/replicate-provider.js';
import { withResilience } from '../../../src/adapters/providers/resilience/resilient-provider.js';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { replicateModels } from '../../../src/adapters/providers/replicate/replicate-models.js';
import { ProviderJobAbandoned, ProviderOutcomeUnknown, ProviderUnavailable, type ProviderRequest } from '../../../src/ports/image-provider.js';
import { parametersFrom } from '../../../src/providers.js';
import { buildNodeProviderSet } from '../../../src/runtimes/node/providers.js';
import { prediction } from '../../../src/adapters/providers/replicate/replicate.fake.js';
import { rejectionOf, sendJson, startLoopbackServer, type LoopbackServer } from '../../../src/test-support/loopback-server.js';

/*
 * Issue 17: PROVIDER_TIMEOUT_MS bounds a whole provider call. Past it, a job the provider accepted is cancelled and
 * reported billed without an image; a request still in flight has an unknown outcome.
 */

const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const paths = (server: LoopbackServer) => server.requests.map((r) => `${r.method} ${r.path}`);

describe('a Replicate job still running at the deadline', () => {
  it('is cancelled at the provider and reported abandoned (504), billed without an image', async () => {
    // Accepted at once, then `processing` on every status check, as a prediction stuck in a queue.
    const server = await startLoopbackServer((sent, response) => {
      if (sent.method === 'POST' && sent.path.endsWith('/predictions')) return sendJson(response, 201, prediction(sent.headers, 'stuck', 'starting'));
      if (sent.path.endsWith('/cancel')) return sendJson(response, 200, prediction(sent.headers, 'stuck', 'canceled'));
      return sendJson(response, 200, prediction(sent.headers, 'stuck', 'processing'));
    });
    servers.push(server);
    const adapter = createReplicateProvider({ apiToken: 'r8_test', baseUrl: server.origin, pollIntervalMs: 20 }, parametersFrom(replicateModels));
    const provider = withResilience(adapter, {
      timeoutMs: 300,
      retries: 2,
      baseDelayMs: 1,
      maxDelayMs: 5,
      maxConcurrent: 1,
      breakerThreshold: 5,
      breakerCooldownMs: 30_000,
    });
    const request: ProviderRequest = { providerModel: 'black-forest-labs/flux-schnell', prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 42 };
    const started = performance.now();
    const error = await rejectionOf(provider.generate(request));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(ProviderJobAbandoned);
    expect(error).toMatchObject({ status: 504, message: expect.stringContaining('job stuck') });
    await expect.poll(() => paths(server)).toContain('POST /v1/predictions/stuck/cancel');
    expect(paths(server).filter((path) => path.startsWith('POST /v1/models/'))).toHaveLength(1);
  });

  it('reports a prediction Replicate canceled (it bills it) as abandoned, not as a failure', async () => {
    const server = await startLoopbackServer((sent, response) => sendJson(response, 201, prediction(sent.headers, 'gone', 'canceled')));
    servers.push(server);
    const adapter = createReplicateProvider({ apiToken: 'r8_test', baseUrl: server.origin }, parametersFrom(replicateModels));
    const error = await rejectionOf(adapter.generate({ providerModel: 'black-forest-labs/flux-schnell', prompt: 'x', width: 1024, height: 1024, seed: 1 }));
    expect(error).toBeInstanceOf(ProviderJobAbandoned);
  });
});

describe('Workers AI and PROVIDER_TIMEOUT_MS', () => {
  it('gives up on a stalled answer within PROVIDER_TIMEOUT_MS, as a provider error of the 504 kind', async () => {
    const server = await startLoopbackServer((_sent, response, fake) => fake.stall(response));
    servers.push(server);
    const config = loadConfig({
      CLOUDFLARE_ACCOUNT_ID: 'acct',
      CLOUDFLARE_API_TOKEN: 'token',
      CLOUDFLARE_API_BASE_URL: `${server.origin}/client/v4`,
      PROVIDER_TIMEOUT_MS: '300',
    });
    const provider = buildNodeProviderSet(config).providers.get('workers-ai');
    if (provider === undefined) throw new Error('workers-ai is not enabled');
    const started = performance.now();
    const error = await rejectionOf(
      provider.generate({ providerModel: '@cf/black-forest-labs/flux-1-schnell', prompt: 'a lighthouse at dusk', width: 1024, height: 1024, seed: 1 }),
    );
    expect(performance.now() - started).toBeLessThan(1_500);
    // Sent and never answered: it may have run, so it is never sent again, and the domain answers 504.
    expect(error).toBeInstanceOf(ProviderOutcomeUnknown);
    expect(error).toMatchObject({ timedOut: true, message: expect.stringContaining('did not answer within') });
    expect(error).not.toBeInstanceOf(ProviderUnavailable);
    expect(server.requests).toHaveLength(1);
  });
});
