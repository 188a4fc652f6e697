import { FAKE_TEXT_TOKENS, startOpenAiFake } from './openai.fake.js';
import { createOpenAiProvider } from './openai-provider.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
