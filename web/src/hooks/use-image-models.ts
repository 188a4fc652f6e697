import { api, dataOf } from '../api/client.js';
import { useLoad } from './use-load.js';

/** A model to filter the gallery by: its id, and its catalogue name (the id for one the catalogue no longer has). */
export interface ImageModel {
  id: string;
  name: string;
}

/** The `model` of uploaded images: the Kind filter is theirs, so the model filter leaves it out. */
const UPLOAD_MODEL = 'upload';

/**
 * The models that have images in the gallery (from the usage report: all time, not counting deleted images),
 * named as the catalogue names them; a model without images would only ever filter to nothing. Empty until loaded.
 */
export function useImageModels(): ImageModel[] {
  const { loaded } = useLoad(async (signal) => {
    const [usage, catalogue] = await Promise.all([
      dataOf(api.GET('/api/analytics/usage', { signal })),
      dataOf(api.GET('/api/models', { params: { query: { limit: 100 } }, signal })),
    ]);
    const names = new Map(catalogue.models.map((model) => [model.id, model.name]));
    return usage.by_model
      .filter((row) => row.model !== UPLOAD_MODEL && row.images - row.deleted_images > 0)
      .map((row) => ({ id: row.model, name: names.get(row.model) ?? row.model }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, []);
  return loaded.state === 'ready' ? loaded.value : [];
}
