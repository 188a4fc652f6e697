import type { ImageParameters } from '../../ports/database.js';
import type { ModelCatalog } from '../models/catalog.js';
import { resolveModel } from '../models/resolve-model.js';
import { checkPrompt } from '../prompt.js';
import { resolveSettings, withoutUndefined, type GenerationOptions } from '../images/generation-settings.js';

/**
 * A template must be usable the day its provider is configured: the model must exist (available or not),
 * the prompt must pass the prompt rule, and every parameter must be one the model accepts, in range.
 */
export function validateTemplate(
  catalog: ModelCatalog,
  fields: { model: string; default_prompt: string; parameters: GenerationOptions },
): { default_prompt: string; parameters: ImageParameters } {
  const model = resolveModel(catalog, fields.model, { requireAvailable: false });
  const default_prompt = checkPrompt(fields.default_prompt);
  resolveSettings(model, [fields.parameters], () => 0);
  return { default_prompt, parameters: withoutUndefined(fields.parameters) };
}
