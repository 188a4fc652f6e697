import type { ImageParameters } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import { GENERATION_PARAMETERS, type GenerationOptions, type SizeRule } from '../models/types.js';
import { resolveOutput, type OutputSettings } from './output-settings.js';

export type { GenerationOptions };

export interface ResolvedSettings {
  width: number;
  height: number;
  seed: number;
  negativePrompt?: string;
  steps?: number;
  guidance?: number;
  /** Format, quality and background of the output. */
  output: OutputSettings;
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
  if (model.size_rule !== undefined)
    checkSizeRule(model.size_rule, width, height, given.width !== undefined || given.height === undefined ? 'width' : 'height', model.id);
  const steps = given.steps ?? model.default_steps;
  if (steps !== undefined && model.max_steps !== undefined) checkRange('steps', steps, 1, model.max_steps, model.id);
  const seed = given.seed ?? randomSeed();
  const output = resolveOutput(model, given);

  const parameters: ImageParameters = withoutUndefined({
    width,
    height,
    seed: model.parameters.includes('seed') ? seed : undefined,
    negative_prompt: given.negative_prompt,
    steps,
    guidance: given.guidance,
    strength: given.strength,
    quality: output.quality,
    background: output.background,
    output_format: given.output_format,
    output_compression: output.compression,
    input_fidelity: output.inputFidelity,
  });
  return { width, height, seed, negativePrompt: given.negative_prompt, steps, guidance: given.guidance, output, parameters };
}

export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function checkRange(field: keyof GenerationOptions, value: number, min: number, max: number, modelId: string): void {
  if (value > max) throw invalidParameter(field, `${field} must be at most ${max} for ${modelId} (got ${value})`);
  if (value < min) throw invalidParameter(field, `${field} must be at least ${min} for ${modelId} (got ${value})`);
}

/** The provider's own size limits beyond a range (OpenAI gpt-image-2: multiples of 16, pixel count, 3:1 at most). */
function checkSizeRule(rule: SizeRule, width: number, height: number, field: 'width' | 'height', modelId: string): void {
  const size = `${width}x${height}`;
  if (rule.multiple_of !== undefined && (width % rule.multiple_of !== 0 || height % rule.multiple_of !== 0)) {
    throw invalidParameter(field, `width and height must be multiples of ${rule.multiple_of} for ${modelId} (got ${size})`);
  }
  const pixels = width * height;
  if (rule.min_pixels !== undefined && pixels < rule.min_pixels) {
    throw invalidParameter(
      field,
      `width x height must be at least ${rule.min_pixels.toLocaleString('en-US')} pixels for ${modelId} (got ${size}, ${pixels.toLocaleString('en-US')})`,
    );
  }
  if (rule.max_pixels !== undefined && pixels > rule.max_pixels) {
    throw invalidParameter(
      field,
      `width x height must be at most ${rule.max_pixels.toLocaleString('en-US')} pixels for ${modelId} (got ${size}, ${pixels.toLocaleString('en-US')})`,
    );
  }
  if (rule.max_aspect_ratio !== undefined && Math.max(width, height) > rule.max_aspect_ratio * Math.min(width, height)) {
    throw invalidParameter(field, `the longer side may be at most ${rule.max_aspect_ratio} times the shorter for ${modelId} (got ${size})`);
  }
}
