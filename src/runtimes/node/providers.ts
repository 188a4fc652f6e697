import { createCpuPool } from '../../adapters/cpu/cpu-pool.js';
import { comfyUiProvider } from '../../adapters/providers/comfyui/provider.js';
import type { OfflineImageWork, ProviderSpec } from '../../adapters/providers/provider-spec.js';
import type { Config } from '../../config/config.js';
import type { Metrics } from '../../ports/metrics.js';
import { buildProviderSet, PROVIDER_SPECS, type ProviderSet } from '../../providers.js';

/** Every provider Node runs: those of every runtime, then those needing Node (registry.ts's NODE_ONLY_SETTINGS). */
export const NODE_PROVIDER_SPECS: readonly ProviderSpec[] = [...PROVIDER_SPECS, comfyUiProvider];

/**
 * The providers of a Node process. Without the runtime's pool (listing models, checking providers) a pool of its
 * own is made, which starts no thread unless it is used.
 */
export function buildNodeProviderSet(
  config: Pick<Config, 'providerEnv' | 'providers'>,
  options: { fetch?: typeof fetch; specs?: readonly ProviderSpec[]; cpu?: OfflineImageWork; metrics?: Metrics } = {},
): ProviderSet {
  return buildProviderSet(config, { ...options, specs: options.specs ?? NODE_PROVIDER_SPECS, cpu: options.cpu ?? createCpuPool() });
}
