import type { ModelDefinition } from '../../../domain/models/types.js';

/*
 * A self-hosted AUTOMATIC1111 / Forge / SD.Next web UI (`--api`), `POST /sdapi/v1/txt2img`. AUTOMATIC1111 itself has
 * had no release for over a year; Forge and SD.Next keep the same `/sdapi/v1` API, so the provider serves all three.
 * For ComfyUI see ../comfyui/comfyui-models.ts.
 *
 * Sources (read 2026-11-23): AUTOMATIC1111/stable-diffusion-webui, modules/api/models.py and api.py (request
 * fields prompt, negative_prompt, width, height, steps, cfg_scale, seed, override_settings; answer
 * `{ images, parameters, info }`), and the wiki page https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/API.
 *
 * Pricing: free. The server is yours; imagegate records $0 (electricity and GPUs are not metered here).
 *
 * `a1111/default` runs whatever checkpoint the server has loaded. Each name in A1111_MODELS (comma-separated,
 * as GET /sdapi/v1/sd-models lists them, e.g. `dreamshaper_8`) becomes `a1111/<name>`, which switches to that
 * checkpoint for the call. Defaults are SD 1.5's: 512x512, 20 steps.
 */

const SOURCE = 'https://github.com/AUTOMATIC1111/stable-diffusion-webui/wiki/API';

function definition(checkpoint: string, name: string, description: string): ModelDefinition {
  return {
    id: `a1111/${checkpoint}`,
    name,
    provider: 'a1111',
    provider_model: checkpoint,
    description,
    speed: 'medium',
    quality: 'standard',
    typical_seconds: 10,
    default_width: 512,
    default_height: 512,
    min_size: 64,
    max_width: 2048,
    max_height: 2048,
    default_steps: 20,
    max_steps: 150,
    parameters: ['width', 'height', 'seed', 'negative_prompt', 'steps', 'guidance'],
    pricing: { kind: 'free' },
    pricing_source: SOURCE,
  };
}

/** The loaded checkpoint, plus one model per checkpoint named in A1111_MODELS. */
export function a1111Models(checkpoints: string | undefined): ModelDefinition[] {
  const names = [
    ...new Set(
      (checkpoints ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && name !== 'default'),
    ),
  ];
  return [
    definition(
      'default',
      'Automatic1111 (loaded checkpoint)',
      'Your own AUTOMATIC1111, Forge or SD.Next server, with whichever checkpoint it has loaded; free, and as fast as your GPU.',
    ),
    ...names.map((checkpoint) =>
      definition(
        checkpoint,
        `Automatic1111: ${checkpoint}`,
        `Checkpoint ${checkpoint} on your own AUTOMATIC1111, Forge or SD.Next server (switched to for each call); free.`,
      ),
    ),
  ];
}
