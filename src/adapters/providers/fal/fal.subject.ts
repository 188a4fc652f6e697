import { createFalProvider } from './fal-provider.js';
import { falModels } from './fal-models.js';
import { parametersFrom } from '../../../providers.js';
import { startFalFake } from './fal.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
