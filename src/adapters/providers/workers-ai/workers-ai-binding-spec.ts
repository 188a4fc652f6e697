import { workersAiModels } from './workers-ai-models.js';
import type { ProviderSpec } from '../provider-spec.js';
import { createWorkersAiBindingProvider, type AiBinding } from './workers-ai-binding-provider.js';

/**
 * Workers AI for a Workers composition root, in place of the registry's REST entry (provider.ts; same id, same
 * models): the binding is the credential, so nothing is required and the provider is always enabled. Remote, so it
 * gets the same timeouts, retries, concurrency cap and breaker as over REST.
 */
export function workersAiBindingSpec(ai: AiBinding): ProviderSpec {
  return {
    id: 'workers-ai',
    name: 'Cloudflare Workers AI',
    requires: [],
    models: () => workersAiModels,
    create: (_env, _fetch, parametersOf, shared) =>
      createWorkersAiBindingProvider(
        { ai, timeoutMs: shared.timeoutMs, convertMask: (mask, signal) => shared.cpu.inpaintMask(mask.bytes, { signal }) },
        parametersOf,
      ),
    remote: true,
  };
}
