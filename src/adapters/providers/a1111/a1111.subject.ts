import { a1111Models } from './a1111-models.js';
import { createA1111Provider } from './a1111-provider.js';
import { parametersFrom } from '../../../providers.js';
import { startA1111Fake } from './a1111.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
  name: 'Automatic1111',
  providerId: 'a1111',
  modelId: 'a1111/default',
  startFake: startA1111Fake,
  create: (baseUrl) => createA1111Provider({ baseUrl }, parametersFrom(a1111Models(undefined))),
  costCases: [
    { request: { model: 'a1111/default' }, cost: 0 },
    { request: { model: 'a1111/default', width: 1024, height: 1024, steps: 50 }, cost: 0 },
  ],
};
