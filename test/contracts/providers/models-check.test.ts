import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/runtimes/node/config.js';
import { modelsCommand } from '../../../src/runtimes/node/entry/cli/models.js';
import { startA1111Fake } from '../../../src/adapters/providers/a1111/a1111.fake.js';
import { startComfyUiFake } from '../../../src/adapters/providers/comfyui/comfyui.fake.js';
import { startFalFake } from '../../../src/adapters/providers/fal/fal.fake.js';
import { startOpenAiFake } from '../../../src/adapters/providers/openai/openai.fake.js';
import { replicateFlow, startReplicateFake } from '../../../src/adapters/providers/replicate/replicate.fake.js';
import { sampleImages, type StartedFake } from '../../../src/test-support/fake-images.js';
import { startStabilityFake } from '../../../src/adapters/providers/stability/stability.fake.js';
import { startWorkersAiFake } from '../../../src/adapters/providers/workers-ai/workers-ai.fake.js';
import { sendJson, type LoopbackServer } from '../../../src/test-support/loopback-server.js';

/* `imagegate models --check` against every provider's loopback fake: one read-only call each, nothing generated. */

type Fake = StartedFake & { server: LoopbackServer };
let fakes: Record<'workersAi' | 'openAi' | 'replicate' | 'stability' | 'fal' | 'a1111' | 'comfyUi', Fake>;

beforeAll(async () => {
  const [workersAi, openAi, replicate, stability, fal, a1111, comfyUi] = await Promise.all([
    startWorkersAiFake(),
    startOpenAiFake(),
    startReplicateFake(),
    startStabilityFake(),
    startFalFake(),
    startA1111Fake(),
    startComfyUiFake(),
  ]);
  fakes = { workersAi, openAi, replicate, stability, fal, a1111, comfyUi };
});
afterAll(async () => {
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

const env = (): Record<string, string> => ({
  CLOUDFLARE_ACCOUNT_ID: 'acct',
  CLOUDFLARE_API_TOKEN: 'cf-token',
  CLOUDFLARE_API_BASE_URL: fakes.workersAi.baseUrl,
  OPENAI_API_KEY: 'sk-check',
  OPENAI_BASE_URL: fakes.openAi.baseUrl,
  REPLICATE_API_TOKEN: 'r8_check',
  REPLICATE_BASE_URL: fakes.replicate.baseUrl,
  STABILITY_API_KEY: 'sk-stab-check',
  STABILITY_BASE_URL: fakes.stability.baseUrl,
  FAL_KEY: 'fal-check',
  FAL_BASE_URL: fakes.fal.baseUrl,
  A1111_BASE_URL: fakes.a1111.baseUrl,
  COMFYUI_URL: fakes.comfyUi.baseUrl,
});

async function check(vars: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await modelsCommand(loadConfig(vars), ['--check'], { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out, err };
}

const requestsSoFar = () => Object.values(fakes).flatMap((fake) => fake.server.requests.map((r) => `${r.method} ${r.path}`));

describe('imagegate models --check', () => {
  it("calls each configured provider's cheapest read-only endpoint once and reports it ok", async () => {
    for (const fake of Object.values(fakes)) fake.server.requests.length = 0;
    const { code, out } = await check(env());
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^PROVIDER\s+RESULT\s+CHECKED$/);
    expect(out.slice(1).map((line) => line.split(/\s+/).slice(0, 4).join(' '))).toEqual([
      'local ok built in:',
      'workers-ai ok GET /client/v4/accounts/acct/ai/models/search:',
      'openai ok GET /v1/models/gpt-image-2:',
      'replicate ok GET /v1/account:',
      'stability ok GET /v1/user/balance:',
      'fal ok GET /v1/models/pricing:',
      'a1111 ok GET /sdapi/v1/sd-models:',
      'comfyui ok GET /system_stats:',
    ]);
    expect(requestsSoFar().filter((request) => !request.startsWith('GET '))).toEqual([]);
    expect(requestsSoFar()).toHaveLength(7);
  });

  it('checks only the providers configured', async () => {
    const { out } = await check({ OPENAI_API_KEY: 'sk-check', OPENAI_BASE_URL: fakes.openAi.baseUrl });
    expect(out.slice(1).map((line) => line.split(/\s+/)[0])).toEqual(['local', 'openai']);
  });

  it('exits 1 naming the provider whose credentials are refused, without echoing them', async () => {
    fakes.replicate.server.respondWith((_request, response) =>
      sendJson(response, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 }),
    );
    try {
      const { code, out, err } = await check({ REPLICATE_API_TOKEN: 'r8_SECRET-check', REPLICATE_BASE_URL: fakes.replicate.baseUrl });
      expect(code).toBe(1);
      expect(out).toContainEqual(
        expect.stringMatching(
          /^replicate\s+FAILED\s+GET \/v1\/account: Replicate answered 401: You did not pass a valid authentication token \(check the provider's API key\)$/,
        ),
      );
      expect(err.join('\n')).toContain('1 of 2 providers failed their check');
      expect(JSON.stringify(out)).not.toContain('r8_SECRET-check');
    } finally {
      fakes.replicate.server.respondWith(replicateFlow(await sampleImages()));
    }
  });

  it('reports a provider that cannot be reached', async () => {
    const { code, out } = await check({ A1111_BASE_URL: 'http://127.0.0.1:1' });
    expect(code).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^a1111\s+FAILED\s+GET \/sdapi\/v1\/sd-models: Automatic1111 could not be reached/));
  });

  it('refuses --check together with --all', async () => {
    const err: string[] = [];
    const code = await modelsCommand(loadConfig({}), ['--check', '--all'], { out: () => undefined, err: (text) => err.push(text) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--check and --all do not go together');
  });
});
