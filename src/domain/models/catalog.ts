import { lifecycleOf, type LifecycleStatus } from './lifecycle.js';
import { computeCost } from './pricing.js';
import { OUTPUT_FORMATS, TEXT_ONLY, type ModelDefinition, type ModelInputs, type ModelOutputs, type OutputFormat } from './types.js';

export interface ProviderStatus {
  available: boolean;
  /** The provider's name as people say it (ProviderSpec.name). */
  name?: string;
  /** Why the provider cannot be used, naming the settings to set. */
  reason?: string;
}

export interface CatalogEntry extends Omit<ModelDefinition, 'inputs' | 'outputs'> {
  /** The images it takes in; `max_images` 0 for a text-only model. */
  inputs: ModelInputs;
  /** What it can be asked for beyond its size. */
  outputs: ModelOutputs;
  /** USD at default settings. */
  cost_per_image: number;
  /** Its provider's name as people say it ("Black Forest Labs" for `bfl`): the web app's model picker groups by it. */
  provider_name: string;
  available: boolean;
  unavailable_reason?: string;
  /** Catalogue entries are pre-loaded, owned by no caller. */
  user_id: 'system';
}

/** A catalogue entry as a reader sees it on a given day: with its lifecycle, and unavailable once shut down. */
export interface CatalogView extends CatalogEntry {
  lifecycle: LifecycleStatus;
  /** Set for a deprecated or shut-down model, naming its replacement. */
  warning?: string;
}

export function catalogView(entry: CatalogEntry, now: Date): CatalogView {
  const { status, warning } = lifecycleOf(entry, now);
  if (status === 'active') return { ...entry, lifecycle: status };
  if (status === 'deprecated') return { ...entry, lifecycle: status, warning };
  return { ...entry, lifecycle: status, warning, available: false, unavailable_reason: warning };
}

export interface ModelCatalog {
  list(): readonly CatalogEntry[];
  find(id: string): CatalogEntry | undefined;
  /** Used when a generation names no model and no template (`DEFAULT_MODEL`). */
  readonly defaultModelId: string;
}

export const FALLBACK_DEFAULT_MODEL = 'local/procedural';

export function createModelCatalog(
  definitions: readonly ModelDefinition[],
  statusOf: (provider: string) => ProviderStatus,
  defaultModelId: string = FALLBACK_DEFAULT_MODEL,
  /** What this runtime's codec can store (PNG only on Workers): the formats every entry offers. */
  writableFormats: readonly OutputFormat[] = OUTPUT_FORMATS,
): ModelCatalog {
  const entries = definitions.map((definition): CatalogEntry => {
    const status = statusOf(definition.provider);
    const entry: CatalogEntry = {
      ...definition,
      inputs: definition.inputs ?? TEXT_ONLY,
      outputs: {
        formats: writableFormats,
        transparent_background: definition.outputs?.transparent_background ?? false,
        quality: definition.outputs?.quality ?? [],
        partial_images: definition.outputs?.partial_images ?? false,
      },
      cost_per_image: computeCost(definition.pricing, {
        width: definition.default_width,
        height: definition.default_height,
        steps: definition.default_steps,
      }),
      provider_name: status.name ?? definition.provider,
      available: status.available,
      user_id: 'system',
    };
    if (!status.available) entry.unavailable_reason = status.reason ?? `provider ${definition.provider} is not configured`;
    return entry;
  });
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return {
    list: () => entries,
    find: (id) => byId.get(id),
    defaultModelId,
  };
}
