import type { DayModelUsage } from '../api/types.js';

export interface StackSegment {
  model: string;
  value: number;
  /** Where the segment starts: the sum of the segments below it. */
  base: number;
}

export interface StackedDay {
  date: string;
  total: number;
  segments: StackSegment[];
}

/**
 * One bar per day (days without images included, as empty bars), each stacked by model in one fixed
 * order, so a model keeps its place and colour from bar to bar.
 */
export function stackByModel(rows: readonly DayModelUsage[], days: readonly string[], models: readonly string[], measure: 'images' | 'cost'): StackedDay[] {
  const byDay = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const day = byDay.get(row.date) ?? new Map<string, number>();
    day.set(row.model, (day.get(row.model) ?? 0) + row[measure]);
    byDay.set(row.date, day);
  }
  return days.map((date) => {
    let base = 0;
    const segments: StackSegment[] = [];
    for (const model of models) {
      const value = byDay.get(date)?.get(model) ?? 0;
      if (value <= 0) continue;
      segments.push({ model, value, base });
      base += value;
    }
    return { date, total: base, segments };
  });
}

/** A round axis maximum at or above `max`: 1, 2 or 5 times a power of ten. */
export function niceCeiling(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}
