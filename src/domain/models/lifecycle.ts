import type { ModelDefinition } from './types.js';

export type LifecycleStatus = 'active' | 'deprecated' | 'shut_down';

export interface Lifecycle {
  status: LifecycleStatus;
  /** For a deprecated or shut-down model: what is happening and what to use instead, in words. */
  warning?: string;
}

type Dated = Pick<ModelDefinition, 'id' | 'deprecated_at' | 'shutdown_at' | 'replacement'>;

/** Start of a YYYY-MM-DD day in UTC, in milliseconds. */
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/**
 * Where a model stands on `now`: shut down from its shutdown day on (UTC), deprecated from its deprecation day
 * until then, active otherwise. Computed at each read because the catalogue outlives a calendar day.
 */
export function lifecycleOf(model: Dated, now: Date): Lifecycle {
  const instead = model.replacement === undefined ? '' : `; use ${model.replacement} instead`;
  if (model.shutdown_at !== undefined && now.getTime() >= dayStart(model.shutdown_at)) {
    return { status: 'shut_down', warning: `${model.id} was shut down by its provider on ${model.shutdown_at}${instead}` };
  }
  if (model.deprecated_at !== undefined && now.getTime() >= dayStart(model.deprecated_at)) {
    const until = model.shutdown_at === undefined ? '' : ` and shuts down on ${model.shutdown_at}`;
    return { status: 'deprecated', warning: `${model.id} is deprecated since ${model.deprecated_at}${until}${instead}` };
  }
  return { status: 'active' };
}
