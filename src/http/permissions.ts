import type { Permission } from '../domain/keys/principal.js';

/**
 * The permission an endpoint needs, as one table: `read` for reads, `generate` to create images and run
 * batches (and read them back), `manage` for everything else. A key passes with any one of those listed;
 * `manage` carries the other two.
 */
export function requiredPermissions(method: string, path: string): readonly Permission[] {
  if (path === '/api/keys' || path.startsWith('/api/keys/') || path.startsWith('/api/webhooks')) return ['manage'];
  const isBatch = path === '/api/batch' || path.startsWith('/api/batch/');
  if (method === 'GET' || method === 'HEAD') return isBatch ? ['read', 'generate'] : ['read'];
  if (method === 'POST' && (path === '/api/generate' || isBatch)) return ['generate'];
  return ['manage'];
}
