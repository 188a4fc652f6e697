import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { googleModels } from './google-models.js';
import { createGoogleProvider } from './google-provider.js';

/*
 * The Gemini API (Google AI Studio keys). Vertex AI is left out: it is not the same API at another address. Its
 * paths name a project and a location (`/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent`)
 * and it authenticates with short-lived OAuth tokens from a service account, which a base URL cannot express.
 */
export const googleProvider = defineProvider({
  id: 'google',
  name: 'Google (Gemini API)',
  settings: defineSettings({
    shape: { GEMINI_API_KEY: optionalSetting, GEMINI_BASE_URL: baseUrlSetting('https://generativelanguage.googleapis.com') },
  }),
  requires: ['GEMINI_API_KEY'],
  models: () => googleModels,
  create: (env, fetchImpl) => createGoogleProvider({ apiKey: must(env.GEMINI_API_KEY), baseUrl: env.GEMINI_BASE_URL, fetch: fetchImpl }),
  remote: true,
});
