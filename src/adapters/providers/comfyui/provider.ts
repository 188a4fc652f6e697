import { defineProvider, must, ProviderSettingsError } from '../provider-spec.js';
import { comfyUiModels } from './comfyui-models.js';
import { createComfyUiProvider } from './comfyui-provider.js';
import { comfyUiSettings } from './settings.js';
import { BUNDLED_WORKFLOWS, loadComfyWorkflows, type ComfyWorkflow } from './workflows.js';

/** The ComfyUI workflows of COMFYUI_WORKFLOWS (else the bundled samples); a bad file stops start-up naming it. */
function comfyWorkflows(folder: string | undefined): ComfyWorkflow[] {
  try {
    return loadComfyWorkflows(folder ?? BUNDLED_WORKFLOWS);
  } catch (error) {
    throw new ProviderSettingsError(error instanceof Error ? error.message : String(error));
  }
}

/** A self-hosted ComfyUI: its workflows are files on disk and its progress arrives over a WebSocket, so Node only. */
export const comfyUiProvider = defineProvider({
  id: 'comfyui',
  name: 'ComfyUI',
  settings: comfyUiSettings,
  requires: ['COMFYUI_URL'],
  models: (env) => comfyUiModels(comfyWorkflows(env.COMFYUI_WORKFLOWS)),
  create: (env, fetchImpl) => createComfyUiProvider({ baseUrl: must(env.COMFYUI_URL), workflows: comfyWorkflows(env.COMFYUI_WORKFLOWS), fetch: fetchImpl }),
  remote: true,
});
