import type { Model } from '../api/types.js';
import { formatUsd } from '../lib/format.js';

/** What a model costs, how fast it is and whether it runs here, in the option's own words. */
export const modelLabel = (model: Model): string =>
  `${model.name} — ${model.cost_per_image === 0 ? 'free' : `${formatUsd(model.cost_per_image)} per image`}, ${model.speed}${model.available ? '' : ', not configured'}`;

/** Options for a model picker: the models this server can run first, then the ones it could with more settings. */
export function ModelOptions({ models }: { models: readonly Model[] }) {
  const available = models.filter((model) => model.available);
  const unavailable = models.filter((model) => !model.available);
  return (
    <>
      <optgroup label="Available">
        {available.map((model) => (
          <option key={model.id} value={model.id}>
            {modelLabel(model)}
          </option>
        ))}
      </optgroup>
      {unavailable.length > 0 && (
        <optgroup label="Not configured on this server">
          {unavailable.map((model) => (
            <option key={model.id} value={model.id}>
              {modelLabel(model)}
            </option>
          ))}
        </optgroup>
      )}
    </>
  );
}

/** One line under a picker: how the chosen model behaves, or which settings would enable it. */
export function modelHint(model: Model | undefined): string {
  if (model === undefined) return 'Unknown model.';
  if (!model.available) return `Not available on this server: ${model.unavailable_reason ?? 'its provider is not configured'}.`;
  return `${model.provider}, ${model.quality} quality, about ${model.typical_seconds} s per image.`;
}
