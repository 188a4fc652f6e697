import type { GenerationParameter, ModelDefinition } from '../types.js';

/*
 * A self-hosted ComfyUI server (COMFYUI_URL). Its models are API-format workflow files in a folder
 * (COMFYUI_WORKFLOWS, `<model>.json`), each with a small mapping beside it (`<model>.mapping.json`) naming the
 * nodes that take the prompt, negative prompt, seed, size, steps and guidance. The repository ships two samples
 * (workflows/comfyui: SDXL base and FLUX.1 dev). The adapter (src/adapters/providers/comfyui) reads the files.
 *
 * Sources (read 2026-11-23): Comfy-Org/ComfyUI at a125cd84 (2025-10-11, the newest stored snapshot): server.py
 * (POST /prompt, GET /history/{prompt_id}, GET /view, POST /interrupt with an optional prompt_id, POST /queue,
 * GET /system_stats, websocket /ws?clientId=), execution.py and main.py (the websocket messages and the history
 * entry), script_examples/websockets_api_example.py.
 *
 * Pricing: free. The server is yours; imagegate records $0.
 */

/** What a workflow's mapping says about the model, as the adapter read it from the files. */
export interface ComfyWorkflowInfo {
  /** The file name without `.json`: the model is `comfyui/<id>`. */
  id: string;
  name: string;
  description: string;
  /** The optional parameters the mapping names a node for (the prompt and seed are always mapped). */
  parameters: readonly GenerationParameter[];
  defaults: { width: number; height: number; steps?: number };
  limits: { min_size: number; max_size: number; max_steps: number; multiple_of: number };
  typical_seconds: number;
}

const SOURCE = 'https://github.com/comfyanonymous/ComfyUI';

export function comfyUiModels(workflows: readonly ComfyWorkflowInfo[]): ModelDefinition[] {
  return workflows.map((workflow): ModelDefinition => {
    const sized = workflow.parameters.includes('width');
    const model: ModelDefinition = {
      id: `comfyui/${workflow.id}`,
      name: workflow.name,
      provider: 'comfyui',
      provider_model: workflow.id,
      description: workflow.description,
      speed: workflow.typical_seconds <= 5 ? 'fast' : workflow.typical_seconds <= 15 ? 'medium' : 'slow',
      quality: 'standard',
      typical_seconds: workflow.typical_seconds,
      default_width: workflow.defaults.width,
      default_height: workflow.defaults.height,
      // A workflow whose size is not mapped makes only the size it was saved with.
      min_size: sized ? workflow.limits.min_size : Math.min(workflow.defaults.width, workflow.defaults.height),
      max_width: sized ? workflow.limits.max_size : workflow.defaults.width,
      max_height: sized ? workflow.limits.max_size : workflow.defaults.height,
      parameters: workflow.parameters,
      pricing: { kind: 'free' },
      pricing_source: SOURCE,
    };
    if (sized && workflow.limits.multiple_of > 1) model.size_rule = { multiple_of: workflow.limits.multiple_of };
    if (workflow.parameters.includes('steps') && workflow.defaults.steps !== undefined) {
      model.default_steps = workflow.defaults.steps;
      model.max_steps = workflow.limits.max_steps;
    }
    return model;
  });
}
