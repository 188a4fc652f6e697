/** Nearest-rank percentile of `samples` (milliseconds or any unit); NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): Summary {
  return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.length === 0 ? Number.NaN : Math.max(...samples) };
}

export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
export const count = (value: number): string => Math.round(value).toLocaleString('en-US');
