import { createStabilityProvider } from './stability-provider.js';
import { parametersFrom } from '../../../providers.js';
import { stabilityModels } from './stability-models.js';
import { startStabilityFake } from './stability.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
