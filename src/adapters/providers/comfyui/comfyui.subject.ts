import { BUNDLED_WORKFLOWS, loadComfyWorkflows } from './workflows.js';
import { createComfyUiProvider } from './comfyui-provider.js';
import { startComfyUiFake } from './comfyui.fake.js';
import type { ProviderSubject } from '../../../test-support/provider-subject.js';

const comfyWorkflows = loadComfyWorkflows(BUNDLED_WORKFLOWS);

/** This provider in the shared suite (test/contracts/providers), against its loopback fake. */
export const subject: ProviderSubject = {
  name: 'ComfyUI',
  providerId: 'comfyui',
  modelId: 'comfyui/sdxl-base',
  startFake: (options) => startComfyUiFake(options),
  create: (baseUrl) => createComfyUiProvider({ baseUrl, workflows: comfyWorkflows, pollIntervalMs: 5 }),
  costCases: [
    { request: { model: 'comfyui/sdxl-base' }, cost: 0 },
    { request: { model: 'comfyui/flux-dev', width: 1344, height: 768, steps: 30, guidance: 3 }, cost: 0 },
  ],
  jobs: {
    isResultFetch: (method, path) => method === 'GET' && path.startsWith('/history/'),
    isDownload: (method, path) => method === 'GET' && path.startsWith('/view'),
  },
};
