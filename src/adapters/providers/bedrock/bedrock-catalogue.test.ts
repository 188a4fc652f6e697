import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../runtimes/node/config.js';
import { buildNodeProviderSet } from '../../../runtimes/node/providers.js';
import { parametersFrom } from '../../../providers.js';
import { createHarness, json, type Harness } from '../../../test-support/harness.js';
import { bedrockModels } from './bedrock-models.js';
import { createBedrockProvider } from './bedrock-provider.js';
import { BEDROCK_FAKE_REGION, startBedrockFake, type BedrockFake } from './bedrock.fake.js';

/*
 * Bedrock as an operator meets it: enabled by BEDROCK_REGION, its models in GET /api/models with their prices, sources
 * and lifecycle, a generation through the routes priced as AWS bills it, and the shut-down Amazon models refused with
 * their replacement. The harness's clock reads 2026-11-20.
 */

const KEYS = { AWS_ACCESS_KEY_ID: 'AKIDFAKEBEDROCK', AWS_SECRET_ACCESS_KEY: 'fake-secret-catalogue' };
const CORE = 'bedrock/stability.stable-image-core-v1:1';

let fake: BedrockFake;
let h: Harness;
beforeAll(async () => {
  fake = await startBedrockFake();
  const bedrock = createBedrockProvider(
    { region: BEDROCK_FAKE_REGION, endpoint: fake.origin, credentials: { accessKeyId: KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY } },
    parametersFrom(bedrockModels),
  );
  h = await createHarness({ providers: { bedrock } });
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

describe('Bedrock settings', () => {
  it('is enabled by BEDROCK_REGION alone, and says so when it is unset', () => {
    const off = buildNodeProviderSet(loadConfig({ AWS_REGION: 'us-west-2', ...KEYS }));
    expect(off.statusOf('bedrock')).toEqual({ available: false, name: 'Amazon Bedrock', reason: 'set BEDROCK_REGION to enable provider bedrock' });
    const on = buildNodeProviderSet(loadConfig({ BEDROCK_REGION: 'us-west-2', BEDROCK_ENDPOINT: fake.origin, ...KEYS }));
    expect(on.statusOf('bedrock')).toEqual({ available: true, name: 'Amazon Bedrock' });
    expect(on.models.filter((model) => model.provider === 'bedrock').map((model) => model.id)).toEqual(bedrockModels.map((model) => model.id));
  });

  it('builds the adapter from the environment: region, endpoint and static keys, signed as the fake expects', async () => {
    const set = buildNodeProviderSet(loadConfig({ BEDROCK_REGION: 'us-west-2', BEDROCK_ENDPOINT: `${fake.origin}/`, ...KEYS }));
    expect(await set.providers.get('bedrock')?.check?.()).toMatchObject({ ok: true, endpoint: 'GET /async-invoke' });
    expect(String(fake.calls.at(-1)?.headers.authorization)).toContain('Credential=AKIDFAKEBEDROCK/');
  });

  it.each([
    [{ BEDROCK_REGION: 'Oregon' }, 'BEDROCK_REGION: must be an AWS region'],
    [{ BEDROCK_REGION: 'us-west-2', BEDROCK_ENDPOINT: 'bedrock.local' }, 'BEDROCK_ENDPOINT'],
    [{ BEDROCK_REGION: 'us-west-2', AWS_ACCESS_KEY_ID: 'AKID' }, 'AWS_SECRET_ACCESS_KEY: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY together'],
  ])('stops start-up on a bad setting: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

interface Entry {
  id: string;
  available: boolean;
  cost_per_image: number;
  pricing: { kind: string };
  pricing_source: string;
  lifecycle: string;
  deprecated_at?: string;
  shutdown_at?: string;
  replacement?: string;
  inputs?: unknown;
}

describe('Bedrock in the catalogue', () => {
  it('lists every Bedrock model with its price, source and lifecycle', async () => {
    const { models } = await json<{ models: Entry[] }>(await h.call('GET', '/api/models?limit=100'));
    const bedrock = Object.fromEntries(models.filter((model) => model.id.startsWith('bedrock/')).map((model) => [model.id, model]));
    const costs = Object.fromEntries(Object.values(bedrock).map((model) => [model.id, [model.cost_per_image, model.lifecycle, model.available]]));
    expect(costs).toEqual({
      [CORE]: [0.04, 'active', true],
      'bedrock/stability.stable-image-ultra-v1:1': [0.14, 'active', true],
      'bedrock/stability.sd3-5-large-v1:0': [0.08, 'active', true],
      'bedrock/us.stability.stable-image-inpaint-v1:0': [0.07, 'active', true],
      'bedrock/amazon.nova-canvas-v1:0': [0.04, 'shut_down', false],
      'bedrock/amazon.titan-image-generator-v2:0': [0.01, 'shut_down', false],
    });
    expect(new Set(Object.values(bedrock).map((model) => model.pricing_source))).toEqual(new Set(['https://aws.amazon.com/bedrock/pricing/']));
    expect(bedrock['bedrock/amazon.nova-canvas-v1:0']).toMatchObject({ deprecated_at: '2026-03-30', shutdown_at: '2026-09-30', replacement: CORE });
    expect(bedrock['bedrock/amazon.titan-image-generator-v2:0']).toMatchObject({ shutdown_at: '2026-06-30', replacement: CORE });
  });

  it('reads one model by its id, colon and all', async () => {
    const res = await h.call('GET', '/api/models/bedrock/stability.sd3-5-large-v1:0');
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: 'bedrock/stability.sd3-5-large-v1:0', inputs: { max_images: 1, mask: false, strength: true } });
  });

  it('generates through the routes and records what AWS bills, with the seed Bedrock used', async () => {
    fake.reset();
    const res = await h.call('POST', '/api/generate', {
      prompt: 'a lighthouse at dusk',
      model: 'bedrock/stability.stable-image-ultra-v1:1',
      seed: 9,
      width: 1920,
      height: 1080,
    });
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({ model: 'bedrock/stability.stable-image-ultra-v1:1', cost: 0.14, parameters: { seed: 9 } });
    expect(fake.calls.map((call) => [call.modelId, (call.body as { aspect_ratio?: string }).aspect_ratio])).toEqual([
      ['stability.stable-image-ultra-v1:1', '16:9'],
    ]);
  });

  it('refuses the shut-down Nova Canvas with its replacement, without calling Bedrock', async () => {
    fake.reset();
    const res = await h.call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model: 'bedrock/amazon.nova-canvas-v1:0' });
    expect(res.status).toBe(400);
    expect((await json(res)).details).toMatchObject({ shutdown_at: '2026-09-30', replacement: CORE });
    expect(fake.calls).toEqual([]);
  });
});
