import type { Backend, SeedCache } from './fixtures.js';

export interface Settings {
  /** Gallery size of scenario 2 on SQLite (BENCH_IMAGES). */
  images: number;
  /** Gallery size of scenario 2 on PostgreSQL (BENCH_PG_IMAGES). */
  pgImages: number;
  /** Seconds of each autocannon run in scenario 1 (BENCH_DURATION). */
  duration: number;
  /** Gallery every other scenario reads. */
  baseImages: number;
}

export interface ScenarioContext {
  settings: Settings;
  cache: SeedCache;
  backend: Backend;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Parses a JSON answer, failing loudly with the status when the request did not succeed. */
export async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
