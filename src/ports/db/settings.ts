export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key has one already; returns the value that is stored. */
  getOrSet(key: string, value: string): Promise<string>;
  /**
   * Stores `value` when none is stored or the stored one sorts before it, atomically; true when this call stored
   * it. Processes that race for the same value: exactly one gets true (a claim, e.g. of a sweep's time window).
   */
  advance(key: string, value: string): Promise<boolean>;
}
