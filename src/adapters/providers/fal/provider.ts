import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { falModels } from './fal-models.js';
import { createFalProvider } from './fal-provider.js';

export const falProvider = defineProvider({
  id: 'fal',
  name: 'fal',
  settings: defineSettings({ shape: { FAL_KEY: optionalSetting, FAL_BASE_URL: baseUrlSetting('https://queue.fal.run') } }),
  requires: ['FAL_KEY'],
  models: () => falModels,
  create: (env, fetchImpl, parametersOf) => createFalProvider({ apiKey: must(env.FAL_KEY), baseUrl: env.FAL_BASE_URL, fetch: fetchImpl }, parametersOf),
  remote: true,
});
