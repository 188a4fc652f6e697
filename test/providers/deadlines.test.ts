import { afterEach, describe, expect, it } from 'vitest';
import { createReplicateProvider } from '../../src/adapters/providers/replicate/replicate-provider.js';
import { withResilience } from '../../src/adapters/providers/resilience/resilient-provider.js';
import { replicateModels } from '../../src/domain/models/catalog/replicate.js';
import { ProviderJobAbandoned, type ProviderRequest } from '../../src/ports/image-provider.js';
import { parametersFrom } from '../../src/providers.js';
import { prediction } from './fakes/replicate-fake.js';
import { rejectionOf, sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server.js';

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
    const provider = withResilience(adapter, { timeoutMs: 300, retries: 2, baseDelayMs: 1, maxDelayMs: 5, maxConcurrent: 1, breakerThreshold: 5, breakerCooldownMs: 30_000 });
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
