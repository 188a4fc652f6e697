import type { ModelDefinition, ModelInputs, Quality, Speed } from '../../../domain/models/types.js';

/*
 * Workers AI's beta Stable Diffusion models (SDXL base and Lightning, DreamShaper 8 LCM in ./workers-ai.ts; SD 1.5
 * img2img and inpainting in workers-ai-sd15-models.ts) share one input schema (width/height 256-2048, num_steps default 20
 * and max 20, guidance, seed, negative_prompt; see the sources cited in those files) and are all free while in beta.
 * This builds their entries so those shared limits are written once; each file keeps its own sources and figures.
 */

const MODEL_PAGE = 'https://developers.cloudflare.com/workers-ai/models/';
const SD_PARAMETERS = ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'] as const;

/** What differs between the Stable Diffusion models: wording, our speed estimates, native size and input images. */
export interface StableDiffusionEntry {
  name: string;
  description: string;
  speed: Speed;
  quality: Quality;
  typical_seconds: number;
  /** Square default size: the model's native resolution (Cloudflare's schemas give no default). */
  default_size: number;
  /** Absent for the text-only models. */
  inputs?: ModelInputs;
}

/** The entry for `@cf/<owner>/<model>`, priced free with its model page as the source. */
export const workersAiStableDiffusion = (owner: string, model: string, entry: StableDiffusionEntry): ModelDefinition => ({
  id: `@cf/${owner}/${model}`,
  name: entry.name,
  provider: 'workers-ai',
  provider_model: `@cf/${owner}/${model}`,
  description: entry.description,
  speed: entry.speed,
  quality: entry.quality,
  typical_seconds: entry.typical_seconds,
  default_width: entry.default_size,
  default_height: entry.default_size,
  min_size: 256,
  max_width: 2048,
  max_height: 2048,
  default_steps: 20,
  max_steps: 20,
  parameters: SD_PARAMETERS,
  pricing: { kind: 'free' },
  pricing_source: `${MODEL_PAGE}${model}/`,
  ...(entry.inputs === undefined ? {} : { inputs: entry.inputs }),
});
