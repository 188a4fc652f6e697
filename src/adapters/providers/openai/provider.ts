import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { openAiModels } from './openai-models.js';
import { createOpenAiProvider } from './openai-provider.js';

export const openAiProvider = defineProvider({
  id: 'openai',
  name: 'OpenAI',
  settings: defineSettings({ shape: { OPENAI_API_KEY: optionalSetting, OPENAI_BASE_URL: baseUrlSetting('https://api.openai.com') } }),
  requires: ['OPENAI_API_KEY'],
  models: () => openAiModels,
  create: (env, fetchImpl) => createOpenAiProvider({ apiKey: must(env.OPENAI_API_KEY), baseUrl: env.OPENAI_BASE_URL, fetch: fetchImpl }),
  remote: true,
});
