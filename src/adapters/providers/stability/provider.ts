import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { stabilityModels } from './stability-models.js';
import { createStabilityProvider } from './stability-provider.js';

export const stabilityProvider = defineProvider({
  id: 'stability',
  name: 'Stability AI',
  settings: defineSettings({ shape: { STABILITY_API_KEY: optionalSetting, STABILITY_BASE_URL: baseUrlSetting('https://api.stability.ai') } }),
  requires: ['STABILITY_API_KEY'],
  models: () => stabilityModels,
  create: (env, fetchImpl, parametersOf, shared) =>
    createStabilityProvider({ apiKey: must(env.STABILITY_API_KEY), baseUrl: env.STABILITY_BASE_URL, fetch: fetchImpl, masks: shared.cpu }, parametersOf),
  remote: true,
});
