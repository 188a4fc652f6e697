import { baseUrlSetting, defineSettings, optionalSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { workersAiModels } from './workers-ai-models.js';
import { createWorkersAiProvider } from './workers-ai-provider.js';

/** Workers AI over Cloudflare's REST API. A Worker with an AI binding uses the binding instead (workers-ai-binding-spec.ts). */
export const workersAiProvider = defineProvider({
  id: 'workers-ai',
  name: 'Cloudflare Workers AI',
  settings: defineSettings({
    shape: {
      CLOUDFLARE_ACCOUNT_ID: optionalSetting,
      CLOUDFLARE_API_TOKEN: optionalSetting,
      CLOUDFLARE_API_BASE_URL: baseUrlSetting('https://api.cloudflare.com/client/v4'),
    },
  }),
  requires: ['CLOUDFLARE_ACCOUNT_ID', 'CLOUDFLARE_API_TOKEN'],
  models: () => workersAiModels,
  create: (env, fetchImpl, parametersOf, shared) =>
    createWorkersAiProvider(
      {
        accountId: must(env.CLOUDFLARE_ACCOUNT_ID),
        apiToken: must(env.CLOUDFLARE_API_TOKEN),
        baseUrl: env.CLOUDFLARE_API_BASE_URL,
        fetch: fetchImpl,
        timeoutMs: shared.timeoutMs,
        convertMask: (mask, signal) => shared.cpu.inpaintMask(mask.bytes, { signal }),
      },
      parametersOf,
    ),
  remote: true,
});
