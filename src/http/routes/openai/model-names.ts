import { ApiError } from '../../../domain/errors.js';
import { catalogView, type CatalogEntry, type ModelCatalog } from '../../../domain/models/catalog.js';

/** OpenAI's own image model names that imagegate has no entry for (never offered, or retired before it existed). */
const OPENAI_ONLY = new Set(['dall-e-2', 'gpt-image-1-mini', 'chatgpt-image-latest']);

/**
 * The catalogue id for a model name as OpenAI code sends it. Catalogue ids pass as they are; OpenAI's own names
 * (`gpt-image-2`, `gpt-image-1`, `dall-e-3`) mean `openai/<name>`, so code written for OpenAI runs unchanged
 * where the OpenAI provider is configured. Where it is not, or the name is one imagegate does not offer, the answer
 * is a 400 that names what to use instead, never a bare `model_not_found`.
 */
export function catalogModelId(catalog: ModelCatalog, model: string | null | undefined, now: Date): string | undefined {
  if (model === undefined || model === null || catalog.find(model) !== undefined) return model ?? undefined;
  const prefixed = `openai/${model}`;
  const entry = catalog.find(prefixed);
  if (entry !== undefined) {
    const view = catalogView(entry, now);
    // A shut-down model is the domain's to refuse: it names the replacement and the date.
    if (view.available || view.lifecycle === 'shut_down') return prefixed;
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model,
      message: `${model} is OpenAI's model, and OpenAI is not configured on this server (${entry.unavailable_reason ?? 'set OPENAI_API_KEY'}); use ${alternatives(catalog, now)} instead`,
    });
  }
  if (OPENAI_ONLY.has(model)) {
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model,
      message: `imagegate does not offer OpenAI's ${model}; use ${alternatives(catalog, now)} instead`,
    });
  }
  return model;
}

/** OpenAI's names for the OpenAI models that can generate here, for `/v1/models`. */
export function openAiNames(catalog: ModelCatalog, now: Date): { name: string; entry: CatalogEntry }[] {
  return catalog
    .list()
    .filter((entry) => entry.provider === 'openai' && catalogView(entry, now).available)
    .map((entry) => ({ name: entry.provider_model, entry }));
}

function alternatives(catalog: ModelCatalog, now: Date): string {
  const available = catalog.list().filter((entry) => catalogView(entry, now).available);
  const openai = available.find((entry) => entry.provider === 'openai');
  const names = [openai?.id, catalog.defaultModelId, ...available.map((entry) => entry.id)].filter((id): id is string => id !== undefined);
  return [...new Set(names)].slice(0, 3).join(', ');
}
