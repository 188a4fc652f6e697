/** USD with about three significant digits for small prices: $0.000634, $0.042, $1.25. */
export function formatUsd(value: number): string {
  if (!Number.isFinite(value) || value === 0) return '$0.00';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.min(8, Math.max(2, 2 - magnitude));
  // Trailing zeros beyond the cents say nothing.
  return `$${value.toFixed(decimals).replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** `YYYY-MM-DD` of a date in UTC: the API's days are UTC days. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** Every UTC day from `from` to `to` inclusive (both `YYYY-MM-DD`); empty when `to` is before `from`. */
export function daysBetween(from: string, to: string, max = 366): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end && days.length < max; t += 86_400_000) days.push(utcDay(new Date(t)));
  return days;
}

export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
