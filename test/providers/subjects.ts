import type { ImageProvider } from '../../src/ports/image-provider.js';
import { createWorkersAiProvider } from '../../src/adapters/providers/workers-ai/workers-ai-provider.js';
import { workersAiModels } from '../../src/domain/models/catalog/workers-ai.js';
import { startWorkersAiFake } from './fakes/workers-ai-fake.js';

/** One adapter with a loopback fake that answers success by default; the shared suite runs against each. */
export interface ProviderSubject {
  name: string;
  providerId: string;
  modelId: string;
  startFake(): Promise<{ baseUrl: string; close(): Promise<void> }>;
  create(baseUrl: string): ImageProvider;
}

export const subjects: ProviderSubject[] = [
  {
    name: 'Workers AI',
    providerId: 'workers-ai',
    modelId: '@cf/black-forest-labs/flux-1-schnell',
    startFake: startWorkersAiFake,
    create: (baseUrl) =>
      createWorkersAiProvider({ accountId: 'acct', apiToken: 'token', baseUrl }, (model) => new Set(workersAiModels.find((m) => m.provider_model === model)?.parameters ?? [])),
  },
];
