import { NodeHttpHandler } from '@smithy/node-http-handler';
import { bedrockModels } from '../../../src/adapters/providers/bedrock/bedrock-models.js';
import { createBedrockProvider } from '../../../src/adapters/providers/bedrock/bedrock-provider.js';
import { BEDROCK_FAKE_REGION, startBedrockFake } from '../../../src/adapters/providers/bedrock/bedrock.fake.js';
import { createA1111Provider } from '../../../src/adapters/providers/a1111/a1111-provider.js';
import { createAzureOpenAiProvider } from '../../../src/adapters/providers/azure-openai/azure-openai-provider.js';
import { FAKE_AZURE_KEY, startAzureOpenAiFake } from '../../../src/adapters/providers/azure-openai/azure-openai.fake.js';
import { createBflProvider } from '../../../src/adapters/providers/bfl/bfl-provider.js';
import { createComfyUiProvider } from '../../../src/adapters/providers/comfyui/comfyui-provider.js';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows } from '../../../src/adapters/providers/comfyui/workflows.js';
import { createFalProvider } from '../../../src/adapters/providers/fal/fal-provider.js';
import { createGoogleProvider } from '../../../src/adapters/providers/google/google-provider.js';
import { createOpenAiProvider } from '../../../src/adapters/providers/openai/openai-provider.js';
import { createReplicateProvider } from '../../../src/adapters/providers/replicate/replicate-provider.js';
import { createStabilityProvider } from '../../../src/adapters/providers/stability/stability-provider.js';
import { createWorkersAiProvider } from '../../../src/adapters/providers/workers-ai/workers-ai-provider.js';
import { a1111Models } from '../../../src/adapters/providers/a1111/a1111-models.js';
import { bflModels } from '../../../src/adapters/providers/bfl/bfl-models.js';
import { falModels } from '../../../src/adapters/providers/fal/fal-models.js';
import { replicateModels } from '../../../src/adapters/providers/replicate/replicate-models.js';
import { stabilityModels } from '../../../src/adapters/providers/stability/stability-models.js';
import { workersAiModels } from '../../../src/adapters/providers/workers-ai/workers-ai-models.js';
import type { ImageProvider } from '../../../src/ports/image-provider.js';
import { parametersFrom } from '../../../src/providers.js';
import { startComfyUiFake } from '../../../src/adapters/providers/comfyui/comfyui.fake.js';
import type { FakeOptions, StartedFake } from '../../../src/test-support/fake-images.js';
import { startA1111Fake } from '../../../src/adapters/providers/a1111/a1111.fake.js';
import { startBflFake } from '../../../src/adapters/providers/bfl/bfl.fake.js';
import { startFalFake } from '../../../src/adapters/providers/fal/fal.fake.js';
import { startGoogleFake } from '../../../src/adapters/providers/google/google.fake.js';
import { FAKE_TEXT_TOKENS, startOpenAiFake } from '../../../src/adapters/providers/openai/openai.fake.js';
import { startReplicateFake } from '../../../src/adapters/providers/replicate/replicate.fake.js';
import { startStabilityFake } from '../../../src/adapters/providers/stability/stability.fake.js';
import { startWorkersAiFake } from '../../../src/adapters/providers/workers-ai/workers-ai.fake.js';

/** Requests of a provider that bills per accepted job, as the shared suite needs to tell them apart. */
export interface JobFlow {
  /** After the job exists: a status check or the result read. */
  isResultFetch(method: string, path: string): boolean;
  /** The output file. */
  isDownload(method: string, path: string): boolean;
}

/** One adapter with a loopback fake that answers success by default; the shared suite runs against each. */
export interface ProviderSubject {
  name: string;
  providerId: string;
  modelId: string;
  startFake(options?: FakeOptions): Promise<StartedFake>;
  create(baseUrl: string): ImageProvider;
  /** Generation requests (model, sizes, steps) and the cost each must record, from the provider's price list. */
  costCases: { request: Record<string, unknown>; cost: number }[];
  /** Set for providers that accept a job and deliver it later: a retry must never create a second one. */
  jobs?: JobFlow;
}

const comfyWorkflows = loadComfyWorkflows(BUNDLED_WORKFLOWS);

export const subjects: ProviderSubject[] = [
  {
    name: 'Workers AI',
    providerId: 'workers-ai',
    modelId: '@cf/black-forest-labs/flux-1-schnell',
    startFake: startWorkersAiFake,
    create: (baseUrl) => createWorkersAiProvider({ accountId: 'acct', apiToken: 'token', baseUrl }, parametersFrom(workersAiModels)),
    costCases: [
      // 4 tiles of 512 px + steps x $0.0001056
      { request: { model: '@cf/black-forest-labs/flux-1-schnell' }, cost: 4 * 0.0000528 + 4 * 0.0001056 },
      { request: { model: '@cf/black-forest-labs/flux-1-schnell', steps: 8 }, cost: 4 * 0.0000528 + 8 * 0.0001056 },
      { request: { model: '@cf/leonardo/phoenix-1.0', width: 512, height: 512, steps: 25 }, cost: 0.00583 + 25 * 0.00011 },
      // FLUX.2 [dev]: every output tile for every step, $0.00041
      { request: { model: '@cf/black-forest-labs/flux-2-dev' }, cost: 4 * 25 * 0.00041 },
      { request: { model: '@cf/black-forest-labs/flux-2-dev', width: 768, height: 512, steps: 10 }, cost: 2 * 10 * 0.00041 },
      // FLUX.2 [klein] 9B: $0.015 the first megapixel of 1024x1024, $0.002 each further one
      { request: { model: '@cf/black-forest-labs/flux-2-klein-9b', width: 1920, height: 1080 }, cost: 0.015 + 0.002 },
    ],
  },
  {
    name: 'OpenAI',
    providerId: 'openai',
    modelId: 'openai/gpt-image-2',
    startFake: startOpenAiFake,
    create: (baseUrl) => createOpenAiProvider({ apiKey: 'sk-test', baseUrl }),
    costCases: [
      // The tokens the fake reports: 12 text in at $5/M, image out (1756 at 1024x1024, 1372 at 1536x1024) at $30/M.
      { request: { model: 'openai/gpt-image-2' }, cost: (FAKE_TEXT_TOKENS * 5 + 1756 * 30) / 1e6 },
      { request: { model: 'openai/gpt-image-2', width: 1536, height: 1024 }, cost: (FAKE_TEXT_TOKENS * 5 + 1372 * 30) / 1e6 },
      { request: { model: 'openai/gpt-image-1.5', width: 1536, height: 1024 }, cost: 0.05 },
    ],
  },
  {
    name: 'Azure OpenAI',
    providerId: 'azure-openai',
    modelId: 'azure-openai/gpt-image-2',
    startFake: startAzureOpenAiFake,
    // The fake resource's deployments (FAKE_AZURE_DEPLOYMENTS), as AZURE_OPENAI_DEPLOYMENTS would map them.
    create: (endpoint) =>
      createAzureOpenAiProvider({
        endpoint,
        apiKey: FAKE_AZURE_KEY,
        apiVersion: '2025-04-01-preview',
        deployments: new Map([
          ['gpt-image-2', 'images-prod'],
          ['gpt-image-1.5', 'images-legacy'],
        ]),
      }),
    costCases: [
      // OpenAI's token rates and fake usage (Azure answers OpenAI's ImagesResponse); gpt-image-1.5 per image at medium.
      { request: { model: 'azure-openai/gpt-image-2' }, cost: (FAKE_TEXT_TOKENS * 5 + 1756 * 30) / 1e6 },
      { request: { model: 'azure-openai/gpt-image-1.5', width: 1536, height: 1024 }, cost: 0.05 },
    ],
  },
  {
    name: 'Replicate',
    providerId: 'replicate',
    modelId: 'replicate/black-forest-labs/flux-schnell',
    startFake: startReplicateFake,
    create: (baseUrl) => createReplicateProvider({ apiToken: 'r8_test', baseUrl, pollIntervalMs: 5 }, parametersFrom(replicateModels)),
    costCases: [
      { request: { model: 'replicate/black-forest-labs/flux-schnell', width: 1344, height: 768, steps: 2 }, cost: 0.003 },
      { request: { model: 'replicate/black-forest-labs/flux-dev' }, cost: 0.025 },
      { request: { model: 'replicate/black-forest-labs/flux-dev', width: 640, height: 1536, steps: 50 }, cost: 0.025 },
      { request: { model: 'replicate/black-forest-labs/flux-1.1-pro', width: 1440, height: 800 }, cost: 0.04 },
      // 1920x1088 is 1.99 megapixels of 1024x1024: 2, the first $0.03 and the second $0.015
      { request: { model: 'replicate/black-forest-labs/flux-2-pro', width: 1920, height: 1088 }, cost: 0.045 },
    ],
    jobs: {
      isResultFetch: (method, path) => method === 'GET' && path.startsWith('/v1/predictions/'),
      isDownload: (method, path) => method === 'GET' && path.startsWith('/files/'),
    },
  },
  {
    name: 'Stability AI',
    providerId: 'stability',
    modelId: 'stability/core',
    startFake: startStabilityFake,
    create: (baseUrl) => createStabilityProvider({ apiKey: 'sk-test', baseUrl }, parametersFrom(stabilityModels)),
    costCases: [
      { request: { model: 'stability/core', width: 1920, height: 1080 }, cost: 0.03 },
      { request: { model: 'stability/ultra' }, cost: 0.08 },
      { request: { model: 'stability/sd3.5-large', width: 512, height: 512, guidance: 5 }, cost: 0.065 },
    ],
  },
  {
    name: 'fal',
    providerId: 'fal',
    modelId: 'fal/fal-ai/flux/schnell',
    startFake: startFalFake,
    create: (baseUrl) => createFalProvider({ apiKey: 'fal-test', baseUrl, pollIntervalMs: 5 }, parametersFrom(falModels)),
    costCases: [
      // $0.003 per started megapixel of 1024x1024 pixels
      { request: { model: 'fal/fal-ai/flux/schnell' }, cost: 0.003 },
      { request: { model: 'fal/fal-ai/flux/schnell', width: 1024, height: 1024, steps: 8 }, cost: 0.003 },
      { request: { model: 'fal/fal-ai/flux/schnell', width: 2048, height: 2048 }, cost: 0.012 },
      { request: { model: 'fal/fal-ai/flux-2-pro', width: 1920, height: 1080 }, cost: 0.045 },
      { request: { model: 'fal/fal-ai/flux-pro/v1.1' }, cost: 0.04 },
    ],
    jobs: {
      isResultFetch: (method, path) => method === 'GET' && path.includes('/requests/'),
      isDownload: (method, path) => method === 'GET' && path.startsWith('/files/'),
    },
  },
  {
    name: 'Black Forest Labs',
    providerId: 'bfl',
    modelId: 'bfl/flux-2-pro',
    startFake: startBflFake,
    create: (baseUrl) => createBflProvider({ apiKey: 'bfl-test', baseUrl, pollIntervalMs: 5 }, parametersFrom(bflModels)),
    costCases: [
      // Started megapixels of 1024x1024: the first $0.03, each further one $0.015
      { request: { model: 'bfl/flux-2-pro' }, cost: 0.03 },
      { request: { model: 'bfl/flux-2-pro', width: 1920, height: 1088 }, cost: 0.045 },
      { request: { model: 'bfl/flux-2-max', width: 2048, height: 2048 }, cost: 0.07 + 3 * 0.03 },
      { request: { model: 'bfl/flux-2-flex', width: 1024, height: 768, steps: 20 }, cost: 0.05 },
      { request: { model: 'bfl/flux-kontext-pro', width: 1344, height: 768 }, cost: 0.04 },
    ],
    jobs: {
      isResultFetch: (method, path) => method === 'GET' && path.includes('/get_result'),
      isDownload: (method, path) => method === 'GET' && path.startsWith('/delivery/'),
    },
  },
  {
    name: 'Google',
    providerId: 'google',
    modelId: 'google/gemini-nano-banana-2.1',
    startFake: startGoogleFake,
    create: (baseUrl) => createGoogleProvider({ apiKey: 'AIza-test', baseUrl }),
    costCases: [
      // Google's output tokens per image at its rate: Nano Banana 2.1 $0.0336 at 1K and $0.1134 at 4K, whatever the ratio.
      { request: { model: 'google/gemini-nano-banana-2.1' }, cost: 0.0336 },
      { request: { model: 'google/gemini-nano-banana-2.1', width: 6336, height: 2688 }, cost: 0.1134 },
      // Nano Banana Pro: 1,120 tokens at 1K and 2K, 2,000 at 4K, $120 per million.
      { request: { model: 'google/gemini-3-pro-image', width: 1536, height: 2752 }, cost: 0.1344 },
      { request: { model: 'google/gemini-3-pro-image', width: 4096, height: 4096 }, cost: 0.24 },
    ],
  },
  {
    name: 'Amazon Bedrock',
    providerId: 'bedrock',
    modelId: 'bedrock/stability.stable-image-core-v1:1',
    startFake: startBedrockFake,
    // The fault proxy speaks HTTP/1.1, and the SDK's default handler on Node HTTP/2: NodeHttpHandler talks to it
    // (bedrock.test.ts runs the default handler against the fake's HTTP/2 side).
    create: (baseUrl) =>
      createBedrockProvider(
        {
          region: BEDROCK_FAKE_REGION,
          endpoint: baseUrl,
          credentials: { accessKeyId: 'AKIDFAKEBEDROCK', secretAccessKey: 'fake-secret' },
          requestHandler: new NodeHttpHandler(),
        },
        parametersFrom(bedrockModels),
      ),
    costCases: [
      // Per image, whatever the size: Core $0.04, Ultra $0.14, SD 3.5 Large $0.08.
      { request: { model: 'bedrock/stability.stable-image-core-v1:1', width: 1920, height: 1080 }, cost: 0.04 },
      { request: { model: 'bedrock/stability.stable-image-ultra-v1:1' }, cost: 0.14 },
      { request: { model: 'bedrock/stability.sd3-5-large-v1:0', width: 512, height: 512 }, cost: 0.08 },
    ],
  },
  {
    name: 'Automatic1111',
    providerId: 'a1111',
    modelId: 'a1111/default',
    startFake: startA1111Fake,
    create: (baseUrl) => createA1111Provider({ baseUrl }, parametersFrom(a1111Models(undefined))),
    costCases: [
      { request: { model: 'a1111/default' }, cost: 0 },
      { request: { model: 'a1111/default', width: 1024, height: 1024, steps: 50 }, cost: 0 },
    ],
  },
  {
    name: 'ComfyUI',
    providerId: 'comfyui',
    modelId: 'comfyui/sdxl-base',
    startFake: (options) => startComfyUiFake(options),
    create: (baseUrl) => createComfyUiProvider({ baseUrl, workflows: comfyWorkflows, pollIntervalMs: 5 }),
    costCases: [
      { request: { model: 'comfyui/sdxl-base' }, cost: 0 },
      { request: { model: 'comfyui/flux-dev', width: 1344, height: 768, steps: 30, guidance: 3 }, cost: 0 },
    ],
    jobs: {
      isResultFetch: (method, path) => method === 'GET' && path.startsWith('/history/'),
      isDownload: (method, path) => method === 'GET' && path.startsWith('/view'),
    },
  },
];
