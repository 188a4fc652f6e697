import { ApiError } from '../errors.js';
import type { CatalogEntry, ModelCatalog } from './catalog.js';
import { lifecycleOf } from './lifecycle.js';

/**
 * The catalogue entry for `id`, or the spec's 400 `Invalid model` saying why it cannot be used. With
 * `requireAvailable`, a model its provider has shut down (on `now`) is refused naming its replacement.
 */
export function resolveModel(catalog: ModelCatalog, id: string, { requireAvailable, now }: { requireAvailable: boolean; now?: Date }): CatalogEntry {
  const model = catalog.find(id);
  if (model === undefined) {
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model: id,
      message: `unknown model ${JSON.stringify(id)}; GET /api/models lists the available ones`,
    });
  }
  if (!requireAvailable) return model;
  const lifecycle = lifecycleOf(model, now ?? new Date());
  if (lifecycle.status === 'shut_down') {
    const details: Record<string, unknown> = { model: id, message: lifecycle.warning, shutdown_at: model.shutdown_at };
    if (model.replacement !== undefined) details.replacement = model.replacement;
    throw new ApiError('INVALID_MODEL', 'Invalid model', details);
  }
  if (!model.available) {
    throw new ApiError('INVALID_MODEL', 'Invalid model', {
      model: id,
      message: `model ${id} is not available: ${model.unavailable_reason ?? 'its provider is not configured'}`,
    });
  }
  return model;
}
