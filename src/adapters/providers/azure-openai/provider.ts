import { defineSettings, optionalSetting, optionalUrlSetting } from '../provider-settings.js';
import { defineProvider, must } from '../provider-spec.js';
import { apiVersionSetting, deploymentsOf, deploymentsSetting } from './azure-openai-deployments.js';
import { azureOpenAiModels } from './azure-openai-models.js';
import { createAzureOpenAiProvider } from './azure-openai-provider.js';

/*
 * Key auth only: Microsoft Entra ID tokens would need @azure/identity (not a dependency of imagegate). The endpoint
 * has no default: it is the operator's own resource, https://<resource>.openai.azure.com.
 */
export const azureOpenAiProvider = defineProvider({
  id: 'azure-openai',
  name: 'Azure OpenAI',
  settings: defineSettings({
    shape: {
      AZURE_OPENAI_ENDPOINT: optionalUrlSetting,
      AZURE_OPENAI_API_KEY: optionalSetting,
      AZURE_OPENAI_DEPLOYMENTS: deploymentsSetting,
      AZURE_OPENAI_API_VERSION: apiVersionSetting,
    },
  }),
  requires: ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_DEPLOYMENTS'],
  models: (env) => azureOpenAiModels(deploymentsOf(env.AZURE_OPENAI_DEPLOYMENTS)),
  create: (env, fetchImpl) =>
    createAzureOpenAiProvider({
      endpoint: must(env.AZURE_OPENAI_ENDPOINT),
      apiKey: must(env.AZURE_OPENAI_API_KEY),
      apiVersion: env.AZURE_OPENAI_API_VERSION,
      deployments: deploymentsOf(env.AZURE_OPENAI_DEPLOYMENTS),
      fetch: fetchImpl,
    }),
  remote: true,
});
