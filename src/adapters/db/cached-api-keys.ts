import type { ApiKeyRepository, ApiKeyRow } from '../../ports/database.js';
import type { Clock } from '../../ports/clock.js';

/**
 * How long another process may keep using a key it looked up before a revocation elsewhere, well within the
 * one second every process must honour. Revocations and changes through this process take effect at once.
 */
export const KEY_CACHE_TTL_MS = 500;
const MAX_ENTRIES = 10_000;

/**
 * Authentication looks a key up by the hash of its secret on every request; under load most of those
 * lookups are for the same few keys. This keeps each answer (found or not) for half a second, and forgets a
 * key the moment this process revokes, changes, replaces or inserts one.
 */
export function withKeyCache(keys: ApiKeyRepository, clock: Clock, ttlMs = KEY_CACHE_TTL_MS): ApiKeyRepository {
  const byHash = new Map<string, { row: ApiKeyRow | undefined; until: number }>();
  const forget = (predicate: (row: ApiKeyRow | undefined, hash: string) => boolean) => {
    for (const [hash, entry] of byHash) if (predicate(entry.row, hash)) byHash.delete(hash);
  };
  return {
    ...keys,
    async findByHash(hash) {
      const now = clock.now().getTime();
      const cached = byHash.get(hash);
      if (cached !== undefined && cached.until > now) return cached.row;
      const row = await keys.findByHash(hash);
      if (byHash.size >= MAX_ENTRIES) byHash.clear();
      byHash.set(hash, { row, until: now + ttlMs });
      return row;
    },
    async insert(row) {
      await keys.insert(row);
      forget((_cached, hash) => hash === row.hash);
    },
    async upsert(row) {
      await keys.upsert(row);
      forget((cached, hash) => hash === row.hash || cached?.id === row.id);
    },
    async update(userId, id, changes) {
      const updated = await keys.update(userId, id, changes);
      // A changed budget, plan or expiry counts from the next request, as a revocation does.
      forget((cached) => cached?.id === id);
      return updated;
    },
    async revoke(userId, id, at) {
      const revoked = await keys.revoke(userId, id, at);
      forget((cached) => cached?.id === id);
      return revoked;
    },
  };
}
