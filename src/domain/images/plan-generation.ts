import type { TemplateRow } from '../../ports/database.js';
import type { Deps } from '../context.js';
import { notFound } from '../errors.js';
import type { CatalogEntry } from '../models/catalog.js';
import { resolveModel } from '../models/resolve-model.js';
import { checkStorable } from '../json-shape.js';
import { checkPrompt } from '../prompt.js';
import { checkMetadata } from './metadata.js';
import { resolveSettings, type GenerationOptions, type ResolvedSettings } from './generation-settings.js';
import { checkOutputFormat } from './output-settings.js';
import { loadInputs, type GivenInputs, type PlannedInputs } from '../inputs/load-inputs.js';

export interface GenerationRequest extends GenerationOptions {
  prompt?: string;
  model?: string;
  template_id?: string;
  metadata?: Record<string, unknown>;
  /** Gallery images of the caller given to the model; the first is the one edited. */
  image_ids?: string[];
  /** An image whose fully transparent pixels mark the area of the first image to change (OpenAI's semantics). */
  mask_image_id?: string;
}

/** Everything checked and resolved before any provider is called. */
export interface GenerationPlan {
  prompt: string;
  model: CatalogEntry;
  settings: ResolvedSettings;
  template: TemplateRow | undefined;
  metadata: Record<string, unknown> | null;
  /** The input images, loaded and checked; empty for text-to-image. */
  inputs: PlannedInputs;
}

/** Validation shared by single generations and batches: every refusal happens here, before any work. */
export async function planGeneration(
  deps: Pick<Deps, 'db' | 'blobs' | 'catalog' | 'randomSeed' | 'clock'> & { codec?: Pick<Deps['codec'], 'outputFormats'> },
  userId: string,
  input: GenerationRequest,
  /** Input files not stored yet, instead of `image_ids` and `mask_image_id`: a dry run before storing them. */
  given?: GivenInputs,
): Promise<GenerationPlan> {
  // First, whoever called (HTTP, MCP, CLI, a batch): PostgreSQL refuses a NUL only at the insert, after the
  // provider was paid, and a template lookup with one fails outright. Metadata has its own, deeper rule below.
  const { metadata: _metadata, image_ids: imageIds, mask_image_id: maskImageId, ...fields } = input;
  checkStorable(fields, { maxDepth: 32 }, 'the generation request');
  const template = input.template_id === undefined ? undefined : await findTemplate(deps, userId, input.template_id);
  // The request's model, else the template's, else the operator's DEFAULT_MODEL.
  const modelId = input.model ?? template?.model ?? deps.catalog.defaultModelId;
  const prompt = checkPrompt(input.prompt ?? template?.default_prompt);
  const model = resolveModel(deps.catalog, modelId, { requireAvailable: true, now: deps.clock.now() });
  const layers = [template?.parameters ?? {}, fields];
  const inputs = await loadInputs(
    deps,
    userId,
    model,
    { image_ids: imageIds, mask_image_id: maskImageId, strength: input.strength ?? template?.parameters.strength },
    given,
  );
  const resolved = resolveWithInputSize(model, layers, inputs, deps.randomSeed);
  checkOutputFormat(resolved.output.format, deps.codec?.outputFormats);
  // The record names the mask it was edited with; the edited images are its source_image_ids.
  const settings = inputs.mask === undefined ? resolved : { ...resolved, parameters: { ...resolved.parameters, mask_image_id: inputs.mask.id } };
  return { prompt, model, settings, template, metadata: checkMetadata(input.metadata), inputs };
}

/**
 * An edit keeps its input's size when the caller names none (as OpenAI's `size: auto` does), where the model can
 * make that size; otherwise the model's default size, as for text-to-image.
 */
function resolveWithInputSize(model: CatalogEntry, layers: GenerationOptions[], inputs: PlannedInputs, randomSeed: () => number): ResolvedSettings {
  const first = inputs.images[0];
  const sized = layers.some((layer) => layer.width !== undefined || layer.height !== undefined);
  if (first === undefined || sized || !model.parameters.includes('width') || !model.parameters.includes('height'))
    return resolveSettings(model, layers, randomSeed);
  const seed = randomSeed();
  try {
    return resolveSettings(model, [{ width: first.width, height: first.height }, ...layers], () => seed);
  } catch {
    return resolveSettings(model, layers, () => seed);
  }
}

async function findTemplate(deps: Pick<Deps, 'db'>, userId: string, templateId: string): Promise<TemplateRow> {
  const template = await deps.db.templates.findVisible(userId, templateId);
  if (template === undefined) throw notFound('Template', 'template_id', templateId);
  return template;
}
