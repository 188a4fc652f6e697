import type { TimeRange } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface RangeInput {
  from?: string;
  to?: string;
}

/** `from` is inclusive; `to` is inclusive of a whole day when given as a date, exclusive when a timestamp. */
export function toTimeRange(input: RangeInput): TimeRange {
  const from = input.from === undefined ? undefined : parseInstant('from', input.from);
  let to = input.to === undefined ? undefined : parseInstant('to', input.to);
  if (to !== undefined && input.to !== undefined && DATE_ONLY.test(input.to)) to = new Date(to.getTime() + 86_400_000);
  if (from !== undefined && to !== undefined && from.getTime() >= to.getTime()) {
    throw invalidParameter('to', '`to` must be later than `from`');
  }
  return { from: from?.toISOString(), to: to?.toISOString() };
}

function parseInstant(field: 'from' | 'to', text: string): Date {
  const isIso = DATE_ONLY.test(text) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const date = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
  if (!isIso || Number.isNaN(date.getTime())) {
    throw invalidParameter(field, `${field} must be an ISO 8601 date (2026-11-01) or UTC timestamp (2026-11-01T12:00:00Z)`);
  }
  return date;
}
