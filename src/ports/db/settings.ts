export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` unless the key has one already; returns the value that is stored. */
  getOrSet(key: string, value: string): Promise<string>;
}
