import { createGoogleProvider } from './google-provider.js';
import { startGoogleFake } from './google.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
