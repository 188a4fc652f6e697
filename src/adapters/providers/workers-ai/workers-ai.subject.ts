import { createWorkersAiProvider } from './workers-ai-provider.js';
import { parametersFrom } from '../../../providers.js';
import { startWorkersAiFake } from './workers-ai.fake.js';
import { workersAiModels } from './workers-ai-models.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
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
};
