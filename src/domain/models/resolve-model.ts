import { ApiError } from '../errors.js';
import type { CatalogEntry, ModelCatalog } from './catalog.js';

/** The catalogue entry for `id`, or the spec's 400 `Invalid model` saying why it cannot be used. */
export function resolveModel(catalog: ModelCatalog, id: string, { requireAvailable }: { requireAvailable: boolean }): CatalogEntry {
  const model = catalog.find(id);
  if (model === undefined) {
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model: id,
      message: `unknown model ${JSON.stringify(id)}; GET /api/models lists the available ones`,
    });
  }
  if (requireAvailable && !model.available) {
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model: id,
      message: `model ${id} is not available: ${model.unavailable_reason ?? 'its provider is not configured'}`,
    });
  }
  return model;
}
