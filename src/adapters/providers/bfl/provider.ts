import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { bflModels } from './bfl-models.js';
import { createBflProvider } from './bfl-provider.js';

export const bflProvider = defineProvider({
  id: 'bfl',
  name: 'Black Forest Labs',
  settings: defineSettings({ shape: { BFL_API_KEY: optionalSetting, BFL_BASE_URL: baseUrlSetting('https://api.bfl.ai') } }),
  requires: ['BFL_API_KEY'],
  models: () => bflModels,
  create: (env, fetchImpl, parametersOf) => createBflProvider({ apiKey: must(env.BFL_API_KEY), baseUrl: env.BFL_BASE_URL, fetch: fetchImpl }, parametersOf),
  remote: true,
});
