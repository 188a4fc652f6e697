import type { Model } from '../api/types.js';
import { formatUsd } from '../lib/format.js';

/** What a model costs and how fast it is, in the option's own words. */
export const modelLabel = (model: Model): string =>
  `${model.name} — ${model.cost_per_image === 0 ? 'free' : `${formatUsd(model.cost_per_image)} per image`}, ${model.speed}${model.lifecycle === 'deprecated' ? ', deprecated' : ''}`;

/** The setting that would enable a model this server cannot run, in the API's words. */
const enabledBy = (model: Model): string => model.unavailable_reason ?? 'its provider is not configured';

/** Models by provider, in the catalogue's order (the order providers first appear in it). */
function byProvider(models: readonly Model[]): [string, Model[]][] {
  const groups = new Map<string, Model[]>();
  for (const model of models) groups.set(model.provider_name, [...(groups.get(model.provider_name) ?? []), model]);
  return [...groups];
}

/**
 * Options for a model picker, grouped by provider: the models this server can run first, then (in disabled groups,
 * each option naming the setting that enables it) the ones it could with more settings. A model its provider has
 * shut down is left out: the API lists it only so that old images name it.
 */
export function ModelOptions({ models }: { models: readonly Model[] }) {
  const live = models.filter((model) => model.lifecycle !== 'shut_down');
  const available = byProvider(live.filter((model) => model.available));
  const unavailable = byProvider(live.filter((model) => !model.available));
  return (
    <>
      {available.map(([provider, group]) => (
        <optgroup key={provider} label={provider}>
          {group.map((model) => (
            <option key={model.id} value={model.id}>
              {modelLabel(model)}
            </option>
          ))}
        </optgroup>
      ))}
      {unavailable.map(([provider, group]) => (
        <optgroup key={`off-${provider}`} label={`${provider}: not configured here`} disabled>
          {group.map((model) => (
            <option key={model.id} value={model.id}>
              {`${modelLabel(model)} (${enabledBy(model)})`}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

/** Why a model cannot generate here (not configured, or shut down), or undefined when it can. */
export function modelUnusable(model: Model | undefined): string | undefined {
  if (model === undefined) return 'Choose a model first.';
  if (model.lifecycle === 'shut_down') return `${model.name} cannot generate: ${model.warning ?? 'its provider has shut it down'}.`;
  if (!model.available) return `${model.name} is not configured here: ${enabledBy(model)}.`;
  return undefined;
}

/** One line under a picker: how the chosen model behaves, or which settings would enable it. */
export function modelHint(model: Model | undefined): string {
  if (model === undefined) return 'Unknown model.';
  if (model.lifecycle === 'shut_down') return `${model.warning ?? 'Shut down by its provider'}.`;
  if (!model.available) return `Not available on this server: ${enabledBy(model)}.`;
  const behaviour = `${model.provider}, ${model.quality} quality, about ${model.typical_seconds} s per image.`;
  return model.warning === undefined ? behaviour : `${behaviour} ${model.warning}.`;
}
