import { createCpuPool } from '../../adapters/cpu/cpu-pool.js';
import { createComfyUiProvider } from '../../adapters/providers/comfyui/comfyui-provider.js';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows, type ComfyWorkflow } from '../../adapters/providers/comfyui/workflows.js';
import { ConfigError, type Config, type ProviderEnv } from '../../config.js';
import { comfyUiModels } from '../../domain/models/catalog/comfyui.js';
import type { Metrics } from '../../ports/metrics.js';
import { buildProviderSet, must, PROVIDER_SPECS, type OfflineImageWork, type ProviderSet, type ProviderSpec } from '../../providers.js';

/** The ComfyUI workflows of COMFYUI_WORKFLOWS (else the bundled samples); a bad file stops start-up naming it. */
function comfyWorkflows(env: ProviderEnv): ComfyWorkflow[] {
  try {
    return loadComfyWorkflows(env.COMFYUI_WORKFLOWS ?? BUNDLED_WORKFLOWS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A self-hosted ComfyUI: its workflows are files on disk and its progress arrives over a WebSocket, so Node only. */
const comfyUiSpec: ProviderSpec = {
  id: 'comfyui',
  requires: ['COMFYUI_URL'],
  models: (env) => comfyUiModels(comfyWorkflows(env)),
  create: (env, fetchImpl) => createComfyUiProvider({ baseUrl: must(env.COMFYUI_URL), workflows: comfyWorkflows(env), fetch: fetchImpl }),
  remote: true,
};

/** Every provider Node runs: those of every runtime, then ComfyUI. */
export const NODE_PROVIDER_SPECS: readonly ProviderSpec[] = [...PROVIDER_SPECS, comfyUiSpec];

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
