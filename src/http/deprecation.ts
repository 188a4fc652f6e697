import { lifecycleOf } from '../domain/models/lifecycle.js';
import type { ModelDefinition } from '../domain/models/types.js';

/**
 * Headers announcing that the model used is deprecated: `Deprecation` (RFC 9745, the date as `@<unix seconds>`),
 * `Sunset` (RFC 8594) with the shutdown day, and a `Link` to the replacement. None for an active model.
 */
export function deprecationHeaders(model: ModelDefinition | undefined, now: Date): Record<string, string> {
  if (model?.deprecated_at === undefined || lifecycleOf(model, now).status !== 'deprecated') return {};
  const headers: Record<string, string> = { Deprecation: `@${Math.floor(dayStart(model.deprecated_at) / 1000)}` };
  if (model.shutdown_at !== undefined) headers.Sunset = new Date(dayStart(model.shutdown_at)).toUTCString();
  if (model.replacement !== undefined) headers.Link = `</api/models/${model.replacement}>; rel="successor-version"`;
  return headers;
}

const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);
