import type { Model } from '../api/types.js';
import { formatUsd } from '../lib/format.js';

/** What a model costs, how fast it is and whether it runs here, in the option's own words. */
export const modelLabel = (model: Model): string =>
  `${model.name} — ${model.cost_per_image === 0 ? 'free' : `${formatUsd(model.cost_per_image)} per image`}, ${model.speed}${model.lifecycle === 'deprecated' ? ', deprecated' : ''}${model.available ? '' : ', not configured'}`;

/**
 * Options for a model picker: the models this server can run first, then the ones it could with more settings.
 * A model its provider has shut down is left out: it is listed by the API only so that old images name it.
 */
export function ModelOptions({ models }: { models: readonly Model[] }) {
  const live = models.filter((model) => model.lifecycle !== 'shut_down');
  const available = live.filter((model) => model.available);
  const unavailable = live.filter((model) => !model.available);
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
  if (model.lifecycle === 'shut_down') return `${model.warning ?? 'Shut down by its provider'}.`;
  if (!model.available) return `Not available on this server: ${model.unavailable_reason ?? 'its provider is not configured'}.`;
  const behaviour = `${model.provider}, ${model.quality} quality, about ${model.typical_seconds} s per image.`;
  return model.warning === undefined ? behaviour : `${behaviour} ${model.warning}.`;
}
