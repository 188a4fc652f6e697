import { api, dataOf, withKey } from './client.js';
import type { AppConfig, Me } from './types.js';

export const loadAppConfig = (): Promise<AppConfig> => dataOf(api.GET('/app/config.json'));

/**
 * Checks a key and learns what it may do, in one request any valid key may make: 200 with its permissions,
 * 401 (thrown) when the key is not valid at all. Nothing is probed by trying what a key might not be allowed.
 */
export const loadMe = (key?: string): Promise<Me> => dataOf(api.GET('/api/me', key === undefined ? {} : withKey(key)));
