import { ApiFailure } from '../lib/api-error.js';
import { api } from './client.js';
import type { AppConfig } from './types.js';

export const loadAppConfig = (): Promise<AppConfig> => api.get<AppConfig>('/app/config.json');

/**
 * Checks a key and learns whether it may manage keys, in one request: listing keys answers 200 with
 * `manage`, 403 with any other valid key, and 401 when the key is not valid at all (which throws).
 */
export async function probeKey(key: string): Promise<{ canManage: boolean }> {
  try {
    await api.get('/api/keys?limit=1', { key });
    return { canManage: true };
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 403 && error.code === 'FORBIDDEN') return { canManage: false };
    throw error;
  }
}
