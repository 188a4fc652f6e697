import type { GenerationParameter, ModelDefinition, ModelInputs } from '../../../domain/models/types.js';

/*
 * A self-hosted ComfyUI server (COMFYUI_URL). Its models are API-format workflow files in a folder
 * (COMFYUI_WORKFLOWS, `<model>.json`), each with a small mapping beside it (`<model>.mapping.json`) naming the
 * nodes that take the prompt, negative prompt, seed, size, steps and guidance, and for image-to-image the LoadImage
 * node(s) that take input images (`image`), the LoadImageMask node that takes the mask (`mask`) and the KSampler
 * `denoise` that takes the strength (`strength`). A workflow takes exactly the inputs its mapping names: that is
 * its `inputs` here. The repository ships four samples (workflows/comfyui: SDXL base, FLUX.1 dev, SDXL img2img and
 * SDXL inpaint). The adapter (src/adapters/providers/comfyui) reads the files.
 *
 * Input images reach the server with POST /upload/image (server.py: multipart `image`, `type`, `overwrite`), which
 * answers the name the LoadImage node then loads (nodes.py LoadImage, folder_paths.get_annotated_filepath). Masks:
 * LoadImageMask with channel `alpha` gives 1 - alpha (nodes.py), so a transparent pixel is masked, the area the
 * sampler repaints (SetLatentNoiseMask, VAEEncodeForInpaint): OpenAI's convention, which imagegate's masks follow,
 * so the mask is uploaded unchanged. Strength maps straight to `denoise` (1 = the input is ignored, for both).
 *
 * Sources (read 2026-11-23): Comfy-Org/ComfyUI at a125cd84 (2025-10-11, the newest stored snapshot): server.py
 * (POST /prompt, GET /history/{prompt_id}, GET /view, POST /interrupt with an optional prompt_id, POST /queue,
 * GET /system_stats, websocket /ws?clientId=), execution.py and main.py (the websocket messages and the history
 * entry), script_examples/websockets_api_example.py. For input images (read 2026-11-24, same snapshot; the
 * repository is comfyanonymous/ComfyUI's new home): server.py image_upload (POST /upload/image), nodes.py
 * (LoadImage, LoadImageMask, VAEEncode, SetLatentNoiseMask, VAEEncodeForInpaint), folder_paths.py
 * (get_annotated_filepath), execution.py (VALIDATE_INPUTS, custom_validation_failed), comfy_extras/nodes_mask.py
 * (ImageCompositeMasked, which the inpainting sample uses to keep every unmasked pixel as it was).
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
  /** The images the mapping takes in: one per mapped LoadImage, a mask and a strength when mapped. */
  inputs: ModelInputs;
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
    if (workflow.inputs.max_images > 0) model.inputs = workflow.inputs;
    if (sized && workflow.limits.multiple_of > 1) model.size_rule = { multiple_of: workflow.limits.multiple_of };
    if (workflow.parameters.includes('steps') && workflow.defaults.steps !== undefined) {
      model.default_steps = workflow.defaults.steps;
      model.max_steps = workflow.limits.max_steps;
    }
    return model;
  });
}
