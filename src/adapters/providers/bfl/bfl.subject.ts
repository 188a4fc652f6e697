import { bflModels } from './bfl-models.js';
import { createBflProvider } from './bfl-provider.js';
import { parametersFrom } from '../../../providers.js';
import { startBflFake } from './bfl.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
