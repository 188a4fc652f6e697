import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerGenerationJobs } from '../../../domain/batches/batch-workers.js';
import { bootstrapAdminKey } from '../../../domain/keys/bootstrap-admin-key.js';
import { createNodeApp } from '../../../runtimes/node/app.js';
import { loadConfig } from '../../../runtimes/node/config.js';
import { buildDeps } from '../../../runtimes/node/deps.js';
import { callInit, json, TEST_KEY, testCpuPool } from '../../../test-support/harness.js';
import { FAKE_TEXT_TOKENS } from '../openai/openai.fake.js';
import { FAKE_AZURE_KEY, startAzureOpenAiFake } from './azure-openai.fake.js';

/*
 * GET /api/models and POST /api/generate as a server started with the Azure settings answers them: the settings
 * parsed by the real configuration, the provider built by the registry, the catalogue read through the route.
 */

interface ListedModel {
  id: string;
  description: string;
  available: boolean;
  lifecycle: 'active' | 'deprecated' | 'shut_down';
  unavailable_reason?: string;
  cost_per_image: number;
  pricing: { kind: string };
  pricing_source: string;
  deprecated_at?: string;
  shutdown_at?: string;
  replacement?: string;
}

let fake: Awaited<ReturnType<typeof startAzureOpenAiFake>>;
beforeAll(async () => {
  fake = await startAzureOpenAiFake();
});
afterAll(() => fake.close());

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server's app on an in-memory database, configured by `env` alone, as `imagegate serve` would be. */
async function serverWith(env: Record<string, string>) {
  const runtime = await buildDeps(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...env }), {
    logger: pino({ level: 'silent' }),
    cpu: testCpuPool(),
  });
  closers.push(() => runtime.close());
  await bootstrapAdminKey(runtime.deps, TEST_KEY);
  registerGenerationJobs(runtime.deps);
  const config = { authMode: 'api_key', allowedIps: [], clientIpHeader: 'CF-Connecting-IP' } as const;
  const app = createNodeApp({ deps: runtime.deps, config, serveFiles: true, clientAddress: () => '127.0.0.1' });
  const call = async (method: string, path: string, body?: unknown) => app.request(path, callInit(config, method, body));
  const azureModels = async () =>
    (await json<{ models: ListedModel[] }>(await call('GET', '/api/models?limit=100'))).models.filter((model) => model.id.startsWith('azure-openai/'));
  return { call, azureModels };
}

const CONFIGURED = {
  AZURE_OPENAI_ENDPOINT: '',
  AZURE_OPENAI_API_KEY: FAKE_AZURE_KEY,
  AZURE_OPENAI_DEPLOYMENTS: ' gpt-image-2 = images-prod , gpt-image-1.5=images-legacy',
};

describe('Azure OpenAI in GET /api/models', () => {
  it('lists one available model per mapped deployment, with its deployment, prices, lifecycle and sources', async () => {
    const server = await serverWith({ ...CONFIGURED, AZURE_OPENAI_ENDPOINT: fake.baseUrl });
    const models = await server.azureModels();
    expect(models.map((model) => [model.id, model.available])).toEqual([
      ['azure-openai/gpt-image-2', true],
      ['azure-openai/gpt-image-1.5', true],
    ]);
    const [gptImage2, gptImage15] = models;
    expect(gptImage2).toMatchObject({
      pricing: { kind: 'tokens' },
      pricing_source: 'https://azure.microsoft.com/pricing/details/cognitive-services/openai-service/',
      description: expect.stringContaining('Served by your deployment "images-prod".'),
    });
    expect(gptImage2?.cost_per_image).toBeCloseTo((1756 * 30) / 1e6, 9);
    expect(gptImage15).toMatchObject({
      cost_per_image: 0.034,
      shutdown_at: '2026-12-16',
      replacement: 'azure-openai/gpt-image-2',
      description: expect.stringContaining('"images-legacy"'),
    });
  });

  it('generates through the deployment and records the cost of the tokens Azure reports', async () => {
    const server = await serverWith({ ...CONFIGURED, AZURE_OPENAI_ENDPOINT: fake.baseUrl });
    const res = await server.call('POST', '/api/generate', { model: 'azure-openai/gpt-image-2', prompt: 'a lighthouse at dusk' });
    expect(res.status).toBe(201);
    expect((await json<{ cost: number }>(res)).cost).toBeCloseTo((FAKE_TEXT_TOKENS * 5 + 1756 * 30) / 1e6, 12);
    expect(fake.server.requests.at(-1)?.path).toBe('/openai/deployments/images-prod/images/generations?api-version=2025-04-01-preview');
  });

  it('lists every model unavailable, naming the settings to set, when nothing is configured', async () => {
    const models = await (await serverWith({})).azureModels();
    expect(models.map((model) => model.id)).toEqual([
      'azure-openai/gpt-image-2',
      'azure-openai/gpt-image-1.5',
      'azure-openai/gpt-image-1-mini',
      'azure-openai/gpt-image-1',
      'azure-openai/dall-e-3',
    ]);
    for (const model of models) {
      expect(model.available).toBe(false);
      // A model Azure retired says so instead (its lifecycle wins over the settings).
      if (model.lifecycle !== 'shut_down')
        expect(model.unavailable_reason).toBe(
          'set AZURE_OPENAI_ENDPOINT and AZURE_OPENAI_API_KEY and AZURE_OPENAI_DEPLOYMENTS to enable provider azure-openai',
        );
      expect(model.description).toContain(`AZURE_OPENAI_DEPLOYMENTS (${model.id.slice('azure-openai/'.length)}=<deployment>)`);
    }
    expect(models.find((model) => model.id === 'azure-openai/gpt-image-1-mini')).toMatchObject({ deprecated_at: '2026-10-06', shutdown_at: '2027-04-07' });
  });

  it('names the mapping alone when the endpoint and key are set but no deployment is', async () => {
    const models = await (await serverWith({ AZURE_OPENAI_ENDPOINT: fake.baseUrl, AZURE_OPENAI_API_KEY: FAKE_AZURE_KEY })).azureModels();
    const live = models.filter((model) => model.lifecycle !== 'shut_down');
    expect(live.length).toBeGreaterThan(0);
    expect(new Set(live.map((model) => model.unavailable_reason))).toEqual(new Set(['set AZURE_OPENAI_DEPLOYMENTS to enable provider azure-openai']));
  });

  it('names no replacement the catalogue does not list', async () => {
    const models = await (
      await serverWith({ ...CONFIGURED, AZURE_OPENAI_ENDPOINT: fake.baseUrl, AZURE_OPENAI_DEPLOYMENTS: 'gpt-image-1.5=images-legacy' })
    ).azureModels();
    expect(models).toHaveLength(1);
    expect(models[0]?.replacement).toBeUndefined();
  });
});

describe('Azure OpenAI settings', () => {
  it.each([
    ['gpt-image-2', '"gpt-image-2" is not <model>=<deployment>'],
    ['gpt-5=chat', '"gpt-5" is not an Azure OpenAI image model'],
    ['gpt-image-2=my deployment', '"my deployment" (for gpt-image-2) is not a deployment name'],
    ['gpt-image-2=a,gpt-image-2=b', 'gpt-image-2 is mapped twice'],
    [' , ', 'names no deployment'],
  ])('refuses AZURE_OPENAI_DEPLOYMENTS=%j, naming the variable and the fault', (value, fault) => {
    expect(() => loadConfig({ AZURE_OPENAI_DEPLOYMENTS: value })).toThrow(`AZURE_OPENAI_DEPLOYMENTS: must map image models to your deployments: ${fault}`);
  });

  it('defaults AZURE_OPENAI_API_VERSION to the images api-version and refuses one that is not dated', () => {
    expect(loadConfig({}).providerEnv.AZURE_OPENAI_API_VERSION).toBe('2025-04-01-preview');
    expect(loadConfig({ AZURE_OPENAI_API_VERSION: '2026-01-01-preview' }).providerEnv.AZURE_OPENAI_API_VERSION).toBe('2026-01-01-preview');
    expect(() => loadConfig({ AZURE_OPENAI_API_VERSION: 'latest' })).toThrow(
      'AZURE_OPENAI_API_VERSION: must be a dated Azure OpenAI api-version such as 2025-04-01-preview',
    );
  });

  it('refuses an endpoint that is not an http(s) address', () => {
    expect(() => loadConfig({ AZURE_OPENAI_ENDPOINT: 'my-resource.openai.azure.com' })).toThrow('AZURE_OPENAI_ENDPOINT');
  });
});
