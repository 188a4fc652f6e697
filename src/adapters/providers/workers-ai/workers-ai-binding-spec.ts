import { workersAiModels } from '../../../domain/models/catalog/workers-ai.js';
import type { ProviderSpec } from '../../../providers.js';
import { createWorkersAiBindingProvider, type AiBinding } from './workers-ai-binding-provider.js';

/**
 * Workers AI for a Workers composition root, in place of PROVIDER_SPECS' REST entry (same id, same models): the
 * binding is the credential, so nothing is required and the provider is always enabled. Remote, so it gets the
 * same timeouts, retries, concurrency cap and breaker as over REST.
 */
export function workersAiBindingSpec(ai: AiBinding): ProviderSpec {
  return {
    id: 'workers-ai',
    requires: [],
    models: () => workersAiModels,
    create: (_env, _fetch, parametersOf, settings) =>
      createWorkersAiBindingProvider(
        { ai, timeoutMs: settings.timeoutMs, convertMask: (mask, signal) => settings.cpu.inpaintMask(mask.bytes, { signal }) },
        parametersOf,
      ),
    remote: true,
  };
}
