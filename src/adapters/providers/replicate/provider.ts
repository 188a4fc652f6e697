import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { replicateModels } from './replicate-models.js';
import { createReplicateProvider } from './replicate-provider.js';

export const replicateProvider = defineProvider({
  id: 'replicate',
  name: 'Replicate',
  settings: defineSettings({ shape: { REPLICATE_API_TOKEN: optionalSetting, REPLICATE_BASE_URL: baseUrlSetting('https://api.replicate.com') } }),
  requires: ['REPLICATE_API_TOKEN'],
  models: () => replicateModels,
  create: (env, fetchImpl, parametersOf, shared) =>
    createReplicateProvider(
      { apiToken: must(env.REPLICATE_API_TOKEN), baseUrl: env.REPLICATE_BASE_URL, fetch: fetchImpl, cancelAfterMs: shared.timeoutMs },
      parametersOf,
    ),
  remote: true,
});
