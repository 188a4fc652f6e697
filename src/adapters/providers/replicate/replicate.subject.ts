import { createReplicateProvider } from './replicate-provider.js';
import { parametersFrom } from '../../../providers.js';
import { replicateModels } from './replicate-models.js';
import { startReplicateFake } from './replicate.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
