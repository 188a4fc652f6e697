import type { ImageParameters } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import { GENERATION_PARAMETERS, type GenerationOptions } from '../models/types.js';

export type { GenerationOptions };

export interface ResolvedSettings {
  width: number;
  height: number;
  seed: number;
  negativePrompt?: string;
  steps?: number;
  guidance?: number;
  /** What was actually used, as recorded on the image. */
  parameters: ImageParameters;
}

/** Template settings under request settings, checked against what the model accepts, defaults filled in. */
export function resolveSettings(model: CatalogEntry, layers: readonly GenerationOptions[], randomSeed: () => number): ResolvedSettings {
  const given: GenerationOptions = Object.assign({}, ...layers);
  for (const name of GENERATION_PARAMETERS) {
    if (given[name] !== undefined && !model.parameters.includes(name)) {
      throw invalidParameter(name, `model ${model.id} does not accept ${name}; it accepts: ${model.parameters.join(', ') || 'no optional parameters'}`);
    }
  }

  const width = given.width ?? model.default_width;
  const height = given.height ?? model.default_height;
  // A fixed size list says more than a range, so it is checked first.
  if (model.sizes !== undefined && !model.sizes.includes(`${width}x${height}`)) {
    const field = given.width !== undefined || given.height === undefined ? 'width' : 'height';
    throw invalidParameter(field, `model ${model.id} makes only these sizes (width x height): ${model.sizes.join(', ')}; got ${width}x${height}`);
  }
  checkRange('width', width, model.min_size, model.max_width, model.id);
  checkRange('height', height, model.min_size, model.max_height, model.id);
  const steps = given.steps ?? model.default_steps;
  if (steps !== undefined && model.max_steps !== undefined) checkRange('steps', steps, 1, model.max_steps, model.id);
  const seed = given.seed ?? randomSeed();

  const parameters: ImageParameters = withoutUndefined({
    width,
    height,
    seed: model.parameters.includes('seed') ? seed : undefined,
    negative_prompt: given.negative_prompt,
    steps,
    guidance: given.guidance,
  });
  return { width, height, seed, negativePrompt: given.negative_prompt, steps, guidance: given.guidance, parameters };
}

export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function checkRange(field: keyof GenerationOptions, value: number, min: number, max: number, modelId: string): void {
  if (value > max) throw invalidParameter(field, `${field} must be at most ${max} for ${modelId} (got ${value})`);
  if (value < min) throw invalidParameter(field, `${field} must be at least ${min} for ${modelId} (got ${value})`);
}
