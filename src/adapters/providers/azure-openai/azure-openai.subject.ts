import { FAKE_AZURE_KEY, startAzureOpenAiFake } from './azure-openai.fake.js';
import { FAKE_TEXT_TOKENS } from '../../../adapters/providers/openai/openai.fake.js';
import { createAzureOpenAiProvider } from './azure-openai-provider.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
