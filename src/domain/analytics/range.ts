import type { TimeRange } from '../../ports/database.js';
import { invalidParameter } from '../errors.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

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

/**
 * `Date` rolls impossible values over (2026-02-31 becomes March 3rd, 24:00 the next day), so every field is
 * checked against the calendar before it is trusted.
 */
function parseInstant(field: 'from' | 'to', text: string): Date {
  const match = DATE_ONLY.exec(text) ?? TIMESTAMP.exec(text);
  const [, year, month, day, hour = '0', minute = '0', second = '0', , zone, zoneHours = '0', zoneMinutes = '0'] = match ?? [];
  const valid =
    match !== null &&
    isCalendarDate(Number(year), Number(month), Number(day)) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    (zone === undefined || zone === 'Z' || (Number(zoneHours) <= 23 && Number(zoneMinutes) <= 59));
  const date = valid ? new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw invalidParameter(
      field,
      `${field} must be a real calendar date (2026-11-01) or UTC timestamp (2026-11-01T12:00:00Z) (got ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
  return date;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}
