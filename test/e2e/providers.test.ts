import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA1111Fake } from '../../src/adapters/providers/a1111/a1111.fake.js';
import { startComfyUiFake } from '../../src/adapters/providers/comfyui/comfyui.fake.js';
import { startFalFake } from '../../src/adapters/providers/fal/fal.fake.js';
import { startOpenAiFake } from '../../src/adapters/providers/openai/openai.fake.js';
import { startReplicateFake } from '../../src/adapters/providers/replicate/replicate.fake.js';
import type { StartedFake } from '../../src/test-support/fake-images.js';
import { startStabilityFake } from '../../src/adapters/providers/stability/stability.fake.js';
import { startWorkersAiFake } from '../../src/adapters/providers/workers-ai/workers-ai.fake.js';
import { startServerProcess, tempDataDir, type ServerProcess } from './spawn-server.js';

/*
 * The real server process, configured only through its documented environment variables, with every
 * provider's base URL pointed at its loopback fake: what an operator does, over real sockets end to end.
 */

const ADMIN = 'igk_live_e2eProvidersAdminKey000000000000';
let fakes: StartedFake[] = [];
let server: ServerProcess;

beforeAll(async () => {
  const [workersAi, openAi, replicate, stability, fal, a1111, comfyUi] = await Promise.all([
    startWorkersAiFake(),
    startOpenAiFake({ answer: 'jpeg' }),
    startReplicateFake(),
    startStabilityFake(),
    startFalFake(),
    startA1111Fake(),
    startComfyUiFake(),
  ]);
  fakes = [workersAi, openAi, replicate, stability, fal, a1111, comfyUi];
  server = await startServerProcess({
    DATA_DIR: tempDataDir(),
    ADMIN_API_KEY: ADMIN,
    CLOUDFLARE_ACCOUNT_ID: 'acct',
    CLOUDFLARE_API_TOKEN: 'cf-token',
    CLOUDFLARE_API_BASE_URL: workersAi.baseUrl,
    OPENAI_API_KEY: 'sk-e2e',
    OPENAI_BASE_URL: openAi.baseUrl,
    REPLICATE_API_TOKEN: 'r8_e2e',
    REPLICATE_BASE_URL: replicate.baseUrl,
    STABILITY_API_KEY: 'sk-stab-e2e',
    STABILITY_BASE_URL: stability.baseUrl,
    FAL_KEY: 'fal-e2e',
    FAL_BASE_URL: fal.baseUrl,
    A1111_BASE_URL: a1111.baseUrl,
    A1111_MODELS: 'dreamshaper_8',
    COMFYUI_URL: comfyUi.baseUrl,
  });
}, 60_000);

afterAll(async () => {
  await server.stop();
  await Promise.all(fakes.map((fake) => fake.close()));
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('every provider, configured by environment, through the running server', () => {
  it('lists every provider model as available', async () => {
    const { models } = (await (await call('GET', '/api/models?limit=100')).json()) as { models: { id: string; available: boolean }[] };
    const available = models.filter((model) => model.available).map((model) => model.id);
    for (const id of [
      '@cf/black-forest-labs/flux-1-schnell',
      '@cf/black-forest-labs/flux-2-dev',
      'openai/gpt-image-2',
      'replicate/black-forest-labs/flux-schnell',
      'stability/core',
      'fal/fal-ai/flux/schnell',
      'a1111/dreamshaper_8',
      'comfyui/sdxl-base',
      'comfyui/flux-dev',
    ]) {
      expect(available).toContain(id);
    }
  });

  it.each([
    ['@cf/black-forest-labs/flux-1-schnell', {}, 0.0006336],
    ['@cf/black-forest-labs/flux-2-dev', { steps: 20, width: 1024, height: 768 }, 4 * 20 * 0.00041],
    // The tokens the OpenAI fake reports: 12 text in at $5/M, 1372 image out at $30/M.
    ['openai/gpt-image-2', { width: 1536, height: 1024 }, (12 * 5 + 1372 * 30) / 1e6],
    ['replicate/black-forest-labs/flux-dev', { steps: 30, guidance: 3.5 }, 0.025],
    ['replicate/black-forest-labs/flux-2-pro', { width: 1024, height: 1024 }, 0.03],
    ['stability/sd3.5-large', { negative_prompt: 'fog' }, 0.065],
    ['fal/fal-ai/flux/schnell', { width: 1024, height: 1024 }, 0.003],
    ['a1111/dreamshaper_8', { steps: 12 }, 0],
    ['comfyui/sdxl-base', { negative_prompt: 'fog', steps: 20 }, 0],
  ])('generates with %s, stores a PNG served at r2_url, and records its cost', async (model, options, cost) => {
    const res = await call('POST', '/api/generate', { prompt: 'a lighthouse at dusk', model, ...options });
    const image = (await res.json()) as { r2_url: string; width: number; height: number; cost: number; model: string };
    expect(res.status, JSON.stringify(image)).toBe(201);
    expect(image.model).toBe(model);
    expect(image.cost).toBeCloseTo(cost, 9);
    const file = await fetch(image.r2_url);
    expect(file.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', image.width, image.height]);
  });
});
